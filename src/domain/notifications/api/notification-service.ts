import type { Context } from '../../../context';
import { Notification, type NotificationCategory } from '../entities/notification';
import { checkPaging, isUuid } from '../../../limits';
import { findPage } from '../../../family/find-page';
import { toPage, type Page } from '../../../schema/page';
import { FilterOp } from '../../../family/search-input';
import { FamilyService } from '../../../family/service';
import { notifications } from './notifications';

/**
 * The recipient's feed (spec 4.11 and GET /notifications/me). Everything goes through the
 * group's service, so only the caller's own delivered notifications are ever touched.
 */
const service = new FamilyService(notifications);

/** Which page of notifications a feed asks for, and of which category (all when absent). */
export interface FeedQuery {
  pageNumber?: number | null;
  pageSize?: number | null;
  category?: NotificationCategory | null;
}

const pagingOf = (query: FeedQuery) =>
  checkPaging(query.pageNumber, query.pageSize, ['pageNumber', 'pageSize']);

/** The caller's notifications, newest first, optionally of one category. */
export function myNotifications(
  ctx: Context,
  { category, ...paging }: FeedQuery,
): Promise<Page<Notification>> {
  const { page, size } = pagingOf(paging);
  return service.search(ctx, {
    page,
    size,
    sort: [{ field: 'created', ascending: false }],
    filters: category ? [{ field: 'category', op: FilterOp.eq, value: category }] : [],
  });
}

export async function unreadCount(ctx: Context): Promise<number> {
  return ctx.em.count(Notification, service.where(ctx, { read: false }));
}

/** Marks the caller's notifications among `ids` read; ids of others' notifications are ignored. */
export async function markRead(ctx: Context, ids: readonly string[]): Promise<Notification[]> {
  const rows = await service.byIds(ctx, ids);
  for (const row of rows) row.read = true;
  await ctx.em.flush();
  return rows;
}

export async function markAllRead(ctx: Context): Promise<number> {
  const rows = await ctx.em.find(Notification, service.where(ctx, { read: false }));
  for (const row of rows) row.read = true;
  await ctx.em.flush();
  return rows.length;
}

/** Administrators' view: any user's notifications, delivered or not, newest first. */
export async function notificationsOfUsers(
  ctx: Context,
  userId: string | null | undefined,
  { category, ...paging }: FeedQuery,
): Promise<Page<Notification>> {
  const { page, size } = pagingOf(paging);
  if (userId && !isUuid(userId)) return toPage([], 0, page, size, true);
  const where = { ...(userId ? { userId } : {}), ...(category ? { category } : {}) };
  return findPage(ctx.em, Notification, where, [{ created: 'desc' }, { id: 'asc' }], page, size);
}
