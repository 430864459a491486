import { Arg, Ctx, Field, InputType, Mutation, Query, Resolver } from 'type-graphql';
import { IsEmail, IsOptional, Length } from 'class-validator';
import { User } from '../../entities/user';
import { callerOf, type Context } from '../../context';
import { authenticated, can, Requires } from '../../permissions/rules';
import { createUser } from '../../services/provisioning';
import { SUPER_ADMIN } from '../../permissions/catalog';
import { forbidden } from '../../errors';

@InputType({ description: 'A new user of the caller tenant.' })
export class CreateUserInput {
  @Field(() => String)
  @IsEmail()
  email!: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, 100)
  firstName?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, 100)
  lastName?: string;

  @Field(() => [String], { nullable: true, description: 'Names of tenant roles to hold.' })
  roles?: string[];

  @Field(() => Boolean, { nullable: true })
  hasFullAccess?: boolean;
}

@Resolver(() => User)
export class UserResolver {
  @Requires(authenticated)
  @Query(() => User, { description: 'The caller.' })
  me(@Ctx() ctx: Context): User {
    return callerOf(ctx).user;
  }

  @Requires(can('CREATE', 'USERS'))
  @Mutation(() => User, { description: 'Adds a user to the caller tenant (tenant administrators).' })
  async createUser(
    @Arg('input', () => CreateUserInput) input: CreateUserInput,
    @Ctx() ctx: Context,
  ): Promise<User> {
    const caller = callerOf(ctx);
    if (input.roles?.includes(SUPER_ADMIN) && !caller.superAdmin) {
      throw forbidden(`only a holder of ${SUPER_ADMIN} can grant it`);
    }
    return createUser(ctx.em, {
      ...input,
      tenantId: caller.tenantId,
      actorEmail: caller.email,
      actorId: caller.userId,
    });
  }
}
