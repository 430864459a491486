import { Migration } from '@mikro-orm/migrations';

/**
 * Mail coming in: the tenants' IMAP mailboxes the `crm.mailboxes` job reads
 * (src/domain/crm/mailboxes.ts), the files an inbound e-mail carried, and the Message-ID of each
 * e-mail the service sends, so an answer to it is threaded onto it. The password is stored only
 * encrypted (AES-256-GCM with MAILBOX_SECRET_KEY); `last_uid` within `uid_validity` is how far the
 * folder has been read. A tenant table under row-level security like the rest.
 */
export class Migration20261130050000_mailboxes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "mailbox" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "host" text not null, "port" int not null, "secure" boolean not null, "username" text not null, "password_encrypted" text not null, "folder" text not null, "enabled" boolean not null, "uid_validity" text null, "last_uid" bigint null, "last_polled_at" timestamptz null, "last_error" text null, constraint "mailbox_pkey" primary key ("tenant_id", "id"));`,
    );
    this.addSql(
      `create unique index "mailbox_account_uq" on "mailbox" ("tenant_id", "host", "port", "username", "folder");`,
    );
    this.addSql(`alter table "inbound_email" add column "attachments" jsonb not null default '[]';`);
    // The default fills the e-mails that exist; the service writes the list on every new one.
    this.addSql(`alter table "inbound_email" alter column "attachments" drop default;`);
    this.addSql(`alter table "sent_mail" add column "message_id" text null;`);
    this.addSql(
      `create index "sent_mail_tenant_message_id_idx" on "sent_mail" ("tenant_id", "message_id");`,
    );
    this.addSql(`select bms_enable_rls();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "sent_mail_tenant_message_id_idx";`);
    this.addSql(`alter table "sent_mail" drop column "message_id";`);
    this.addSql(`alter table "inbound_email" drop column "attachments";`);
    this.addSql(`drop table if exists "mailbox" cascade;`);
  }
}
