/** Entities of notifications: notifications, push tokens, settings. */
export const notificationEntities: Function[] = [];
