import { Entity, Index, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { Audited } from '../tenant-scoped';

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
@Index({ name: 'employee_tenant_email_idx', properties: ['tenantId', 'email'] })
// Supports the foreign key to app_user: deleting a user finds the employees that name it.
@Index({ name: 'employee_tenant_user_id_idx', properties: ['tenantId', 'userId'] })
@ObjectType({ description: 'A member of staff.' })
export class Employee extends Audited {
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: EMPLOYEE_DOCS.firstName })
  firstName?: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: EMPLOYEE_DOCS.lastName })
  lastName?: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: EMPLOYEE_DOCS.email })
  email?: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: EMPLOYEE_DOCS.jobTitle })
  jobTitle?: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: EMPLOYEE_DOCS.department })
  department?: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: EMPLOYEE_DOCS.avatar })
  avatar?: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: EMPLOYEE_DOCS.phone })
  phone?: string;
  /** The user account of this person, when they sign in. */
  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: EMPLOYEE_DOCS.userId })
  userId?: string;
}

/** The PersonSummary shape of an employee. */
export function personSummary(e: Employee | null) {
  if (!e) return null;
  const fullName = [e.firstName, e.lastName].filter(Boolean).join(' ') || null;
  return {
    id: e.id,
    avatar: e.avatar ?? null,
    department: e.department ?? null,
    email: e.email ?? null,
    fullName,
    jobTitle: e.jobTitle ?? null,
  };
}
