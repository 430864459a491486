import { Arg, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { Activity, ActivityType } from '../../entities/crm/activity';
import { FamilyService } from '../../family/service';
import { can, Requires } from '../../permissions/rules';
import { CustomerSummary, OpportunitySummary, UserSummary } from './summary-types';
import { activities } from './activities';
import { customerOf, opportunityOf, userOf } from './related';

const service = new FamilyService(activities);

@Resolver(() => Activity)
export class ActivityResolver {
  @Requires(can('READ', 'ACTIVITIES'))
  @Query(() => [Activity], { description: 'The activities of a customer, oldest first.' })
  activitiesByCustomer(
    @Arg('customerId', () => ID, { description: 'Id of the customer.' }) customerId: string,
    @Ctx() ctx: Context,
  ): Promise<Activity[]> {
    return service.listBy(ctx, 'customerId', customerId);
  }

  @Requires(can('READ', 'ACTIVITIES'))
  @Query(() => [Activity], { description: 'The activities of an opportunity, oldest first.' })
  activitiesByOpportunity(
    @Arg('opportunityId', () => ID, { description: 'Id of the opportunity.' }) opportunityId: string,
    @Ctx() ctx: Context,
  ): Promise<Activity[]> {
    return service.listBy(ctx, 'opportunityId', opportunityId);
  }

  @Requires(can('READ', 'ACTIVITIES'))
  @Query(() => [Activity], { description: 'The activities a user owns, oldest first.' })
  activitiesByOwner(
    @Arg('ownerId', () => ID, { description: 'Id of the user.' }) ownerId: string,
    @Ctx() ctx: Context,
  ): Promise<Activity[]> {
    return service.listBy(ctx, 'ownerId', ownerId);
  }

  @Requires(can('READ', 'ACTIVITIES'))
  @Query(() => [Activity], { description: 'The activities of one type, oldest first.' })
  activitiesByType(
    @Arg('type', () => ActivityType, { description: 'The kind of activity.' }) type: ActivityType,
    @Ctx() ctx: Context,
  ): Promise<Activity[]> {
    return service.list(ctx, { type });
  }

  @Requires(can('READ', 'ACTIVITIES'))
  @Query(() => [Activity], { description: 'The completed activities, oldest first.' })
  completedActivities(@Ctx() ctx: Context): Promise<Activity[]> {
    return service.list(ctx, { completed: true });
  }

  @FieldResolver(() => CustomerSummary, { nullable: true, description: 'The customer `customerId` names.' })
  customer(@Root() activity: Activity, @Ctx() ctx: Context): Promise<CustomerSummary | null> {
    return customerOf(ctx, activity.customerId);
  }

  @FieldResolver(() => OpportunitySummary, {
    nullable: true,
    description: 'The opportunity `opportunityId` names.',
  })
  opportunity(@Root() activity: Activity, @Ctx() ctx: Context): Promise<OpportunitySummary | null> {
    return opportunityOf(ctx, activity.opportunityId);
  }

  @FieldResolver(() => UserSummary, {
    nullable: true,
    description: 'The owner: display name (first and last name, or e-mail), id and username (e-mail).',
  })
  owner(@Root() activity: Activity, @Ctx() ctx: Context): Promise<UserSummary | null> {
    return userOf(ctx, activity.ownerId);
  }
}
