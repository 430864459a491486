import { Field, ID, ObjectType } from 'type-graphql';
import type { Employee } from '../../reference/entities/employee';

/** An epic as a feature shows it. */
@ObjectType('EpicSummary', { description: 'The epic a feature belongs to.' })
export class EpicSummary {
  @Field(() => String, { nullable: true, description: 'Colour of the epic.' }) color?: string | null;
  @Field(() => ID, { description: 'Id of the epic.' }) id!: string;
  @Field(() => String, { description: 'Name of the epic.' }) name!: string;
}

/** An employee as a team shows it. */
@ObjectType('TeamMember', { description: 'A member of a team (derived from an employee).' })
export class TeamMember {
  @Field(() => String, { nullable: true, description: "The employee's e-mail address." }) email?:
    string | null;
  @Field(() => String, { nullable: true, description: "The employee's first name." }) firstName?:
    string | null;
  @Field(() => ID, { description: 'Id of the employee.' }) id!: string;
  @Field(() => String, { nullable: true, description: "The employee's job title." }) jobTitle?: string | null;
  @Field(() => String, { nullable: true, description: "The employee's last name." }) lastName?: string | null;
}

@ObjectType('PersonSummary', {
  description: 'A person as other records show them (derived from an employee).',
})
export class PersonSummary {
  @Field(() => String, { nullable: true, description: "Id of the person's avatar image." }) avatar?:
    string | null;
  @Field(() => String, { nullable: true, description: "The person's department." }) department?:
    string | null;
  @Field(() => String, { nullable: true, description: "The person's e-mail address." }) email?: string | null;
  @Field(() => String, { nullable: true, description: 'First and last name.' }) fullName?: string | null;
  @Field(() => ID, { description: 'Id of the employee.' }) id!: string;
  @Field(() => String, { nullable: true, description: "The person's job title." }) jobTitle?: string | null;
}

/** The PersonSummary shape of an employee. */
export function personSummary(e: Employee | null): PersonSummary | null {
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
