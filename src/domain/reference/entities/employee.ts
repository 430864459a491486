import { Entity } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { Audited } from '../../../entities/tenant-scoped';
import { TenantIndexes, TextColumn, UuidColumn } from '../../../entities/columns';

/** What Employee fields mean, shared with the inputs that set them. */
export const EMPLOYEE_DOCS = {
  firstName: "The employee's first name.",
  lastName: "The employee's last name.",
  email: "The employee's e-mail address.",
  jobTitle: "The employee's job title.",
  department: "The employee's department.",
  avatar: "Id of the employee's picture.",
  phone: "The employee's phone number.",
  userId: "Id of the employee's user, if they have one.",
} as const;

/** A member of staff: what PersonSummary, team members, epic owners and project leads show. */
@Entity({ tableName: 'employee' })
@TenantIndexes('employee', 'email')
// Supports the foreign key to app_user: deleting a user finds the employees that name it.
@TenantIndexes('employee', 'userId')
@ObjectType({ description: 'A member of staff.' })
export class Employee extends Audited {
  @TextColumn({ description: EMPLOYEE_DOCS.firstName })
  firstName?: string | null;
  @TextColumn({ description: EMPLOYEE_DOCS.lastName })
  lastName?: string | null;
  @TextColumn({ description: EMPLOYEE_DOCS.email })
  email?: string | null;
  @TextColumn({ description: EMPLOYEE_DOCS.jobTitle })
  jobTitle?: string | null;
  @TextColumn({ description: EMPLOYEE_DOCS.department })
  department?: string | null;
  @TextColumn({ description: EMPLOYEE_DOCS.avatar })
  avatar?: string | null;
  @TextColumn({ description: EMPLOYEE_DOCS.phone })
  phone?: string | null;
  /** The user account of this person, when they sign in. */
  @UuidColumn({ description: EMPLOYEE_DOCS.userId })
  userId?: string | null;
}
