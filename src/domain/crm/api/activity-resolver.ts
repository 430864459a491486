import { Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../../context';
import { Activity } from '../entities/activity';
import { FamilyService } from '../../../family/service';
import { can, Requires } from '../../../permissions/rules';
import { CustomerSummary, OpportunitySummary, UserSummary } from './summary-types';
import { activities } from './activities';
import { customerOf, opportunityOf, userOf } from './related';

const service = new FamilyService(activities);

@Resolver(() => Activity)
export class ActivityResolver {
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
