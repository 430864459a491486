import { Entity } from '@mikro-orm/core';
import { Extensions, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Audited } from '../../../entities/tenant-scoped';
import {
  BooleanColumn,
  BooleanPairColumn,
  DateTimeColumn,
  EnumColumn,
  JsonColumn,
  TenantIndexes,
  TextColumn,
  UuidColumn,
} from '../../../entities/columns';

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
@TenantIndexes(
  'notification',
  'userId',
  'category',
  'notificationType',
  'read',
  'scope',
  'sender',
  'title',
  'created',
)
@ObjectType({ description: 'An in-app notification for one user.' })
export class Notification extends Audited {
  /** The recipient. */
  @UuidColumn({ nullable: false, description: 'Id of the recipient.' })
  userId!: string;

  @TextColumn({ description: NOTIFICATION_DOCS.title })
  title?: string | null;

  @TextColumn({ description: NOTIFICATION_DOCS.body })
  body?: string | null;

  @TextColumn({ description: 'E-mail of the user who sent it.' })
  sender?: string | null;

  @EnumColumn(() => NotificationCategory, { nullable: false, description: 'Category of the notification.' })
  category: NotificationCategory = NotificationCategory.SYSTEM;

  @EnumColumn(() => NotificationType, { nullable: false, description: 'What kind of notification it is.' })
  notificationType: NotificationType = NotificationType.INFO;

  /** A key of the scope catalog (`invoice.overdue`); recipients can switch scopes off. */
  @TextColumn({ description: 'Scope of the notification; the recipient may switch scopes off.' })
  scope?: string | null;

  @TextColumn({ description: NOTIFICATION_DOCS.actionUrl })
  actionUrl?: string | null;

  @JsonColumn(() => GraphQLJSONObject, { description: 'Any JSON the sender attached.' })
  metadata?: Record<string, unknown> | null;

  @BooleanPairColumn('isRead', {
    nullable: false,
    description: 'True once the recipient read it; same as `isRead`.',
    aliasDescription: NOTIFICATION_DOCS.isRead,
  })
  read: boolean = false;

  @BooleanColumn({ nullable: false, description: 'True once it was e-mailed.' })
  emailSent: boolean = false;

  @DateTimeColumn({ description: 'When it was e-mailed.' })
  emailSentAt?: Date | null;

  /**
   * False when the recipient's settings turned it away from the in-app feed (category off,
   * scope off, or in-app notifications off). It is kept for the record but the recipient never
   * sees it; the administrators' view (GraphQL) does.
   */
  @BooleanColumn({ nullable: false, description: 'Whether it reached the recipient in-app (GraphQL only).' })
  @Extensions({ rest: false })
  delivered: boolean = true;
}
