import { Field, ID, ObjectType } from 'type-graphql';

/** An epic as a feature shows it. */
@ObjectType('EpicSummary', { description: 'The epic a feature belongs to.' })
export class EpicSummary {
  @Field(() => String, { description: 'Colour of the epic.', nullable: true }) color?: string | null;
  @Field(() => ID, { description: 'Id of the epic.' }) id!: string;
  @Field(() => String, { description: 'Name of the epic.' }) name!: string;
}

/** An employee as a team shows it. */
@ObjectType('TeamMember', { description: 'A member of a team (derived from an employee).' })
export class TeamMember {
  @Field(() => String, { description: "The employee's e-mail address.", nullable: true }) email?:
    string | null;
  @Field(() => String, { description: "The employee's first name.", nullable: true }) firstName?:
    string | null;
  @Field(() => ID, { description: 'Id of the employee.' }) id!: string;
  @Field(() => String, { description: "The employee's job title.", nullable: true }) jobTitle?: string | null;
  @Field(() => String, { description: "The employee's last name.", nullable: true }) lastName?: string | null;
}
