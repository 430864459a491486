import { Entity, Index, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { Audited } from '../tenant-scoped';

/** A member of staff: what PersonSummary, team members, epic owners and project leads show. */
@Entity({ tableName: 'employee' })
@Index({ name: 'employee_tenant_email_idx', properties: ['tenantId', 'email'] })
// Supports the foreign key to app_user: deleting a user finds the employees that name it.
@Index({ name: 'employee_tenant_user_id_idx', properties: ['tenantId', 'userId'] })
@ObjectType({ description: 'A member of staff.' })
export class Employee extends Audited {
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The employee's first name." })
  firstName?: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The employee's last name." })
  lastName?: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The employee's e-mail address." })
  email?: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The employee's job title." })
  jobTitle?: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The employee's department." })
  department?: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "Id of the employee's picture." })
  avatar?: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The employee's phone number." })
  phone?: string;
  /** The user account of this person, when they sign in. */
  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: "Id of the employee's user, if they have one." })
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
