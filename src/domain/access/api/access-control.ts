import { Arg, Ctx, Field, ID, InputType, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { ArrayMaxSize } from 'class-validator';
import { User } from '../../../entities/user';
import { callerOf, type Context } from '../../../context';
import { forbidden } from '../../../errors';
import { ARG_DOCS } from '../../../schema/descriptions';
import { signOutEverywhere, type SignedOut } from '../sign-out';
import { DateTimeISOResolver } from '../../../schema/date-time';
import { authenticated, can, Requires } from '../../../permissions/rules';
import { MAX_IDS } from '../../../limits';
import {
  accessUsers,
  myAccess,
  setAccessUsers,
  setFullAccess,
  setUserAccess,
  type Access,
  type AccessEntry,
} from '../access-service';

@ObjectType({ description: 'The projects and subsidiaries the caller reaches.' })
export class MyAccess implements Access {
  @Field(() => [String], {
    description: 'Ids of the projects the caller may see; with full access, every project.',
  })
  accessibleProjectIds!: string[];
  @Field(() => [String], {
    description: 'Ids of the subsidiaries the caller may see; with full access, every subsidiary.',
  })
  accessibleSubsidiaryIds!: string[];
  @Field(() => Boolean, { description: 'True when the caller sees every subsidiary and project.' })
  hasFullAccess!: boolean;
}

@ObjectType({ description: 'A user who reaches a project or subsidiary, and why.' })
export class AccessUser implements AccessEntry {
  @Field(() => String, { description: "The user's e-mail address." }) email!: string;
  @Field(() => String, { nullable: true, description: "The user's first name." }) firstName!: string | null;
  @Field(() => String, { nullable: true, description: "The user's last name." }) lastName!: string | null;
  @Field(() => Boolean, { description: 'True when the user has full access.' }) hasFullAccess!: boolean;
  @Field(() => Boolean, { description: 'True when the id is in the user’s own list.' }) isDirect!: boolean;
  @Field(() => String, {
    nullable: true,
    description: 'FULL_ACCESS or SUPER_ADMIN when the access is not direct; null when it is.',
  })
  inheritedFrom!: string | null;
}

@InputType({ description: 'The users who should hold the id directly (every other user loses it).' })
export class AccessUsersInput {
  @Field(() => [String], {
    description:
      'E-mail addresses of the users who hold access directly; replaces the list. An unknown address is a 404 and changes nothing.',
  })
  @ArrayMaxSize(MAX_IDS)
  userEmails!: string[];
}

@InputType({ description: 'Whether a user has full access.' })
export class FullAccessInput {
  @Field(() => Boolean, { description: 'True to let the user see every subsidiary and project.' })
  hasFullAccess!: boolean;
}

@InputType({ description: 'The projects a user may see.' })
export class ProjectAccessInput {
  @Field(() => [String], { description: "Ids of projects of the tenant; replaces the user's list." })
  @ArrayMaxSize(MAX_IDS)
  projectIds!: string[];
}

@InputType({ description: 'The subsidiaries a user may see.' })
export class SubsidiaryAccessInput {
  @Field(() => [String], { description: "Ids of subsidiaries of the tenant; replaces the user's list." })
  @ArrayMaxSize(MAX_IDS)
  subsidiaryIds!: string[];
}

@ObjectType({ description: 'A sign-out everywhere: whose, and from when credentials count as new.' })
export class SignOut implements SignedOut {
  @Field(() => ID, { description: 'The user signed out.' })
  userId!: string;
  @Field(() => DateTimeISOResolver, {
    description:
      'The moment: credentials issued to the user before it are refused, those issued after it work.',
  })
  signedOutAt!: Date;
}

@Resolver()
export class AccessControlResolver {
  @Requires(authenticated)
  @Mutation(() => SignOut, {
    description:
      'Signs the caller out everywhere: every credential issued to them until now is refused (this one included); one issued after it works at once.',
  })
  signOutEverywhere(@Ctx() ctx: Context): Promise<SignOut> {
    const caller = callerOf(ctx);
    if (caller.apiKey) throw forbidden('an API key is withdrawn by revoking it, not by signing out');
    return signOutEverywhere(ctx.em, caller.userId, ctx.tokenId);
  }

  @Requires(can('UPDATE', 'USERS'))
  @Mutation(() => SignOut, {
    description:
      'Signs a user of the tenant out everywhere: every credential issued to them until now is refused; one issued after it works at once.',
  })
  signOutUser(
    @Arg('id', () => ID, { description: ARG_DOCS.id }) id: string,
    @Ctx() ctx: Context,
  ): Promise<SignOut> {
    // The caller's own token is not the user's, unless the caller signs itself out this way.
    return signOutEverywhere(ctx.em, id, id === callerOf(ctx).userId ? ctx.tokenId : undefined);
  }

  @Requires(authenticated)
  @Query(() => MyAccess, { description: "The caller's accessible projects and subsidiaries." })
  myAccess(@Ctx() ctx: Context): Promise<MyAccess> {
    return myAccess(ctx);
  }

  @Requires(can('READ', 'USERS'))
  @Query(() => [AccessUser], { description: 'Users who reach a project, directly or by full access.' })
  projectAccessUsers(
    @Arg('id', () => ID, { description: 'Id of the project.' }) id: string,
    @Ctx() ctx: Context,
  ): Promise<AccessUser[]> {
    return accessUsers(ctx, 'project', id);
  }

  @Requires(can('READ', 'USERS'))
  @Query(() => [AccessUser], { description: 'Users who reach a subsidiary, directly or by full access.' })
  subsidiaryAccessUsers(
    @Arg('id', () => ID, { description: 'Id of the subsidiary.' }) id: string,
    @Ctx() ctx: Context,
  ): Promise<AccessUser[]> {
    return accessUsers(ctx, 'subsidiary', id);
  }

  @Requires(can('UPDATE', 'USERS'))
  @Mutation(() => [AccessUser], { description: 'Sets who holds a project directly; returns the new list.' })
  setProjectAccessUsers(
    @Arg('id', () => ID, { description: 'Id of the project.' }) id: string,
    @Arg('input', () => AccessUsersInput, { description: 'The users who hold access directly.' })
    input: AccessUsersInput,
    @Ctx() ctx: Context,
  ): Promise<AccessUser[]> {
    return setAccessUsers(ctx, 'project', id, input.userEmails);
  }

  @Requires(can('UPDATE', 'USERS'))
  @Mutation(() => [AccessUser], {
    description: 'Sets who holds a subsidiary directly; returns the new list.',
  })
  setSubsidiaryAccessUsers(
    @Arg('id', () => ID, { description: 'Id of the subsidiary.' }) id: string,
    @Arg('input', () => AccessUsersInput, { description: 'The users who hold access directly.' })
    input: AccessUsersInput,
    @Ctx() ctx: Context,
  ): Promise<AccessUser[]> {
    return setAccessUsers(ctx, 'subsidiary', id, input.userEmails);
  }

  @Requires(can('UPDATE', 'USERS'))
  @Mutation(() => User, { description: 'Turns full access on or off for a user.' })
  setUserFullAccess(
    @Arg('email', () => String, { description: 'E-mail address of the user.' }) email: string,
    @Arg('input', () => FullAccessInput, { description: 'Whether the user has full access.' })
    input: FullAccessInput,
    @Ctx() ctx: Context,
  ): Promise<User> {
    return setFullAccess(ctx, email, input.hasFullAccess);
  }

  @Requires(can('UPDATE', 'USERS'))
  @Mutation(() => User, { description: "Replaces a user's project access list." })
  setUserProjectAccess(
    @Arg('email', () => String, { description: 'E-mail address of the user.' }) email: string,
    @Arg('input', () => ProjectAccessInput, { description: 'The projects the user may see.' })
    input: ProjectAccessInput,
    @Ctx() ctx: Context,
  ): Promise<User> {
    return setUserAccess(ctx, email, 'project', input.projectIds);
  }

  @Requires(can('UPDATE', 'USERS'))
  @Mutation(() => User, { description: "Replaces a user's subsidiary access list." })
  setUserSubsidiaryAccess(
    @Arg('email', () => String, { description: 'E-mail address of the user.' }) email: string,
    @Arg('input', () => SubsidiaryAccessInput, { description: 'The subsidiaries the user may see.' })
    input: SubsidiaryAccessInput,
    @Ctx() ctx: Context,
  ): Promise<User> {
    return setUserAccess(ctx, email, 'subsidiary', input.subsidiaryIds);
  }
}
