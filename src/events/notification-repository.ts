import type { MikroORM } from '@mikro-orm/core';
import { asEventWorker, inOneTrip } from './store';

/**
 * What the event worker reads and writes of notifications and their recipients' devices to make
 * an attempt (`notification`, `app_user`, `push_token`), each within the claim's tenant.
 */

/** A notification's e-mail: its text and its recipient's address. */
export interface NotificationMail {
  title: string | null;
  body: string | null;
  action_url: string | null;
  email: string;
}

/** The e-mail of the tenant's notification `notificationId`; undefined when it no longer exists. */
export async function notificationMail(
  orm: MikroORM,
  tenantId: string,
  notificationId: string,
): Promise<NotificationMail | undefined> {
  const [mail] = await asEventWorker(
    orm,
    (q) =>
      q<NotificationMail>(
        `select n.title, n.body, n.action_url, u.email from notification n
         join app_user u on u.tenant_id = n.tenant_id and u.id = n.user_id
         where n.tenant_id = ? and n.id = ?`,
        [tenantId, notificationId],
      ),
    tenantId,
  );
  return mail;
}

/** A push to send: the device's token and platform, and the notification. */
export interface PushRow {
  token: string;
  platform: string;
  id: string;
  title: string | null;
  body: string | null;
  action_url: string | null;
  category: string;
  notification_type: string;
  scope: string | null;
  created: Date;
}

/**
 * The notification `notificationId` and the device `tokenId`, while the device is still the
 * notification's recipient's; undefined otherwise. One round trip: a push's read is on the hot
 * path of every device's delivery.
 */
export async function pushOf(
  orm: MikroORM,
  tenantId: string,
  notificationId: string,
  tokenId: string,
): Promise<PushRow | undefined> {
  const [row] = await inOneTrip<PushRow>(
    orm,
    `select t.token, t.platform, n.id, n.title, n.body, n.action_url, n.category, n.notification_type, n.scope,
       n.created
     from notification n join push_token t on t.tenant_id = n.tenant_id and t.user_id = n.user_id
     where n.tenant_id = ? and n.id = ? and t.id = ?`,
    [tenantId, notificationId, tokenId],
    tenantId,
  );
  return row;
}

/** Removes the device `tokenId` of the tenant, if it still has the token `token` (the device is gone). */
export async function deletePushToken(
  orm: MikroORM,
  tenantId: string,
  tokenId: string | undefined,
  token: string,
): Promise<void> {
  await asEventWorker(
    orm,
    (q) =>
      q(`delete from push_token where tenant_id = ? and id = ? and token = ?`, [tenantId, tokenId, token]),
    tenantId,
  );
}
