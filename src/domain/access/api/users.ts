import { Ctx, Query, Resolver } from 'type-graphql';
import { User } from '../../../entities/user';
import { callerOf, type Context } from '../../../context';
import { defineGroup } from '../../../family/group';
import { authenticated, Requires } from '../../../permissions/rules';
import { checkUsersLeave, prepareUser } from '../user-guards';
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
  beforeDelete: (ctx, rows) => checkUsersLeave(ctx, rows),
});

@Resolver(() => User)
export class UserResolver {
  @Requires(authenticated)
  @Query(() => User, { description: 'The caller.' })
  me(@Ctx() ctx: Context): User {
    return callerOf(ctx).user;
  }
}
