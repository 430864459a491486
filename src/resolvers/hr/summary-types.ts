import { Field, ID, ObjectType } from 'type-graphql';

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
