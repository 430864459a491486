import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { User } from '../../../entities/user';
import { callerOf, type Context } from '../../../context';
import { defineGroup } from '../../../family/group';
import { authenticated, can, Requires } from '../../../permissions/rules';
import { notFound } from '../../../errors';
import { inTransaction } from '../../../db/transaction';
import { isUuid } from '../../../limits';
import { ARG_DOCS } from '../../../schema/descriptions';
import { inviteUser } from '../invitations';
import { checkUsersLeave, inviteIfInvited, prepareUser } from '../user-guards';
import { CreateUserInput, UpdateUserInput } from './user-inputs';

export const users = defineGroup({
  entity: User,
  name: 'User',
  plural: 'Users',
  resource: 'USERS',
  createInput: CreateUserInput,
  updateInput: UpdateUserInput,
  searchable: ['email', 'firstName', 'lastName'],
  beforeSave: prepareUser,
  afterSave: inviteIfInvited,
  beforeDelete: (ctx, rows) => checkUsersLeave(ctx, rows),
});

@Resolver(() => User)
export class UserResolver {
  @Requires(authenticated)
  @Query(() => User, { description: 'The caller.' })
  me(@Ctx() ctx: Context): User {
    return callerOf(ctx).user;
  }

  @Requires(can('UPDATE', 'USERS'))
  @Mutation(() => User, {
    description:
      'Sends an INVITED user a new invitation e-mail; the earlier link stops working. A user not INVITED is a 409.',
  })
  inviteUser(
    @Arg('id', () => ID, { description: ARG_DOCS.id }) id: string,
    @Ctx() ctx: Context,
  ): Promise<User> {
    return inTransaction(ctx.em, async () => {
      const user = isUuid(id) ? await ctx.em.findOne(User, { id }) : null;
      if (!user) throw notFound(`User ${id} does not exist`);
      await inviteUser(ctx.em, user, callerOf(ctx).user.email);
      return user;
    });
  }
}
