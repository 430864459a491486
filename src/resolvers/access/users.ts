import { FlushMode } from '@mikro-orm/core';
import { Ctx, Field, InputType, Query, Resolver } from 'type-graphql';
import { IsEmail, IsOptional, Length } from 'class-validator';
import { User, UserProfile, UserStatus, USER_DOCS } from '../../entities/user';
import { callerOf, type Context } from '../../context';
import { defineGroup } from '../../family/group';
import { authenticated, Requires } from '../../permissions/rules';
import { SUPER_ADMIN } from '../../permissions/catalog';
import { conflict, forbidden } from '../../errors';
import { normalizeEmail } from '../../services/provisioning';
import { checkRoleNames, checkSuperAdminsRemain } from '../../domain/access/user-guards';

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

/** E-mail addresses identify users within a tenant, compared without case. */
async function checkEmailFree(ctx: Context, user: User): Promise<void> {
  const taken = await ctx.em.count(
    User,
    { email: user.email, id: { $ne: user.id } },
    { flushMode: FlushMode.COMMIT },
  );
  if (taken > 0) throw conflict(`a user with e-mail ${user.email} already exists in this tenant`);
}

export const users = defineGroup({
  entity: User,
  name: 'User',
  plural: 'Users',
  resource: 'USERS',
  createInput: CreateUserInput,
  updateInput: UpdateUserInput,
  searchable: ['email', 'firstName', 'lastName'],
  async beforeSave(ctx, user, input, isNew) {
    if (input.email !== undefined) {
      user.email = normalizeEmail(input.email);
      await checkEmailFree(ctx, user);
    }
    if (isNew) {
      const roles = [...new Set(input.roles ?? [])];
      if (roles.includes(SUPER_ADMIN) && !callerOf(ctx).superAdmin) {
        throw forbidden(`only a holder of ${SUPER_ADMIN} can grant it`);
      }
      await checkRoleNames(ctx, roles);
      user.roles = roles;
      // Users made by an administrator need no e-mail confirmation (as with the CLI).
      user.verified = true;
      user.status = UserStatus.ACTIVE;
    } else if (input.status !== undefined && input.status !== UserStatus.ACTIVE) {
      await checkSuperAdminsRemain(ctx, [user.id]);
    }
  },
  async beforeDelete(ctx, rows) {
    if (rows.some((u) => u.id === callerOf(ctx).userId)) throw conflict('you cannot delete yourself');
    await checkSuperAdminsRemain(
      ctx,
      rows.map((u) => u.id),
    );
  },
});

@Resolver(() => User)
export class UserResolver {
  @Requires(authenticated)
  @Query(() => User, { description: 'The caller.' })
  me(@Ctx() ctx: Context): User {
    return callerOf(ctx).user;
  }
}
