import { Field, ID, ObjectType } from 'type-graphql';

/** An epic as a feature shows it. */
@ObjectType('EpicSummary', { description: 'The epic a feature belongs to.' })
export class EpicSummary {
  @Field(() => String, { nullable: true }) color?: string | null;
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
}

/** An employee as a team shows it. */
@ObjectType('TeamMember', { description: 'A member of a team (derived from an employee).' })
export class TeamMember {
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) firstName?: string | null;
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) jobTitle?: string | null;
  @Field(() => String, { nullable: true }) lastName?: string | null;
}
