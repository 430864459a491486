import { Entity, Enum, Index, Property } from '@mikro-orm/core';
import { Extensions, Field, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { DateTimeISOResolver } from '../../graphql/date-time';
import { Audited } from '../tenant-scoped';

export enum NotificationCategory {
  ERP = 'ERP',
  CRM = 'CRM',
  HR = 'HR',
  SYSTEM = 'SYSTEM',
}
registerEnumType(NotificationCategory, {
  name: 'NotificationCategory',
  description: 'The area of the product a notification comes from.',
  valuesConfig: {
    ERP: { description: 'Business operations (finance, inventory...).' },
    CRM: { description: 'Customers and sales.' },
    HR: { description: 'People and projects.' },
    SYSTEM: { description: 'The service itself.' },
  },
});

export enum NotificationType {
  ALERT = 'ALERT',
  INFO = 'INFO',
  WARNING = 'WARNING',
  TASK = 'TASK',
  MESSAGE = 'MESSAGE',
}
registerEnumType(NotificationType, {
  name: 'NotificationType',
  description: 'How a notification should be presented.',
  valuesConfig: {
    ALERT: { description: 'Needs attention now.' },
    INFO: { description: 'For information.' },
    WARNING: { description: 'Something may be wrong.' },
    TASK: { description: 'Something to do.' },
    MESSAGE: { description: 'A message from someone.' },
  },
});

/** What Notification fields mean, shared with the inputs that set them. */
export const NOTIFICATION_DOCS = {
  title: 'Title of the notification.',
  body: 'Text of the notification.',
  actionUrl: 'Where the notification leads when opened.',
  isRead: 'Same as `read`.',
} as const;

/** An in-app message to one user (`userId`) of the tenant. */
@Entity({ tableName: 'notification' })
@Index({ name: 'notification_tenant_user_id_idx', properties: ['tenantId', 'userId'] })
@Index({ name: 'notification_tenant_category_idx', properties: ['tenantId', 'category'] })
@Index({ name: 'notification_tenant_notification_type_idx', properties: ['tenantId', 'notificationType'] })
@Index({ name: 'notification_tenant_read_idx', properties: ['tenantId', 'read'] })
@Index({ name: 'notification_tenant_scope_idx', properties: ['tenantId', 'scope'] })
@Index({ name: 'notification_tenant_sender_idx', properties: ['tenantId', 'sender'] })
@Index({ name: 'notification_tenant_title_idx', properties: ['tenantId', 'title'] })
@Index({ name: 'notification_tenant_created_idx', properties: ['tenantId', 'created'] })
@ObjectType({ description: 'An in-app notification for one user.' })
export class Notification extends Audited {
  /** The recipient. */
  @Property({ type: 'uuid' })
  @Field(() => String, { description: 'Id of the recipient.' })
  userId!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: NOTIFICATION_DOCS.title })
  title?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: NOTIFICATION_DOCS.body })
  body?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'E-mail of the user who sent it.' })
  sender?: string;

  @Enum({ items: () => NotificationCategory })
  @Field(() => NotificationCategory, { description: 'Category of the notification.' })
  category: NotificationCategory = NotificationCategory.SYSTEM;

  @Enum({ items: () => NotificationType })
  @Field(() => NotificationType, { description: 'What kind of notification it is.' })
  notificationType: NotificationType = NotificationType.INFO;

  /** A key of the scope catalog (`invoice.overdue`); recipients can switch scopes off. */
  @Property({ type: 'text', nullable: true })
  @Field(() => String, {
    nullable: true,
    description: 'Scope of the notification; the recipient may switch scopes off.',
  })
  scope?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: NOTIFICATION_DOCS.actionUrl })
  actionUrl?: string;

  @Property({ type: 'json', nullable: true })
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Any JSON the sender attached.' })
  metadata?: Record<string, unknown> | null;

  @Property({ type: 'boolean' })
  @Field(() => Boolean, { description: 'True once the recipient read it; same as `isRead`.' })
  read: boolean = false;

  @Field(() => Boolean, { description: NOTIFICATION_DOCS.isRead })
  get isRead(): boolean {
    return this.read;
  }

  @Property({ type: 'boolean' })
  @Field(() => Boolean, { description: 'True once it was e-mailed.' })
  emailSent: boolean = false;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When it was e-mailed.' })
  emailSentAt?: Date;

  /**
   * False when the recipient's settings turned it away from the in-app feed (category off,
   * scope off, or in-app notifications off). It is kept for the record but the recipient never
   * sees it; the administrators' view (GraphQL) does.
   */
  @Property({ type: 'boolean' })
  @Field(() => Boolean, { description: 'Whether it reached the recipient in-app (GraphQL only).' })
  @Extensions({ rest: false })
  delivered: boolean = true;
}
