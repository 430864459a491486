import { Field, InputType } from 'type-graphql';
import { IsEmail, IsOptional, Length } from 'class-validator';
import { UserProfile, UserStatus, USER_DOCS } from '../../../entities/user';

/** Fields shared by the create and update inputs; never used as an argument, so not in the schema. */
@InputType({ description: "A user's name, address and language." })
class UserFields {
  @Field(() => String, {
    nullable: true,
    description: "The user's e-mail address, unique in the tenant (409).",
  })
  @IsOptional()
  @IsEmail()
  email?: string;

  @Field(() => String, { nullable: true, description: USER_DOCS.firstName })
  @IsOptional()
  @Length(1, 100)
  firstName?: string;

  @Field(() => String, { nullable: true, description: USER_DOCS.lastName })
  @IsOptional()
  @Length(1, 100)
  lastName?: string;

  @Field(() => String, { nullable: true, description: USER_DOCS.language })
  @IsOptional()
  @Length(2, 35)
  language?: string;
}

/** The e-mail address is required; its validation is inherited (type-graphql keeps the field's place). */
@InputType({ description: 'A new user of the caller tenant.' })
export class CreateUserInput extends UserFields {
  @Field(() => String, { description: "The user's e-mail address, unique in the tenant (409)." })
  override email!: string;

  @Field(() => [String], { nullable: true, description: 'Names of tenant roles to hold.' })
  roles?: string[];

  @Field(() => Boolean, {
    nullable: true,
    description: 'True to let the user see every subsidiary and project (default false).',
  })
  hasFullAccess?: boolean;

  @Field(() => UserProfile, { nullable: true, description: USER_DOCS.profile })
  profile?: UserProfile;

  @Field(() => UserStatus, {
    nullable: true,
    description:
      'ACTIVE (the default) or INVITED: an INVITED user is e-mailed a one-time link to set up sign-in (valid 7 days).',
  })
  status?: UserStatus;
}

@InputType({
  description:
    'Changes to a user; absent fields stay. Roles and access change through the tenant-role and access-control operations.',
})
export class UpdateUserInput extends UserFields {
  @Field(() => UserStatus, {
    nullable: true,
    description: 'Whether the user may use the service (only ACTIVE may); applies from the next request.',
  })
  status?: UserStatus;

  @Field(() => Boolean, { nullable: true, description: USER_DOCS.verified })
  verified?: boolean;

  @Field(() => UserProfile, { nullable: true, description: 'Replaces the whole profile.' })
  profile?: UserProfile;
}
