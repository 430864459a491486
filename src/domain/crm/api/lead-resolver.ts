import {
  Arg,
  Ctx,
  Extensions,
  Field,
  FieldResolver,
  ID,
  InputType,
  Mutation,
  Resolver,
  Root,
} from 'type-graphql';
import { IsEnum } from 'class-validator';
import type { Context } from '../../../context';
import { Lead, LeadStatus } from '../entities/lead';
import { can, Requires } from '../../../permissions/rules';
import { CustomerSummary, OpportunitySummary, SubsidiarySummary, UserSummary } from './summary-types';
import { changeLeadStatus, moveLeadToSubsidiary } from './lead-service';
import { customerOf, opportunityOf, subsidiaryOf, userOf } from './related';

@InputType({ description: 'The status a lead moves to.' })
export class LeadStatusInput {
  @Field(() => LeadStatus, { description: 'The new status.' }) @IsEnum(LeadStatus) status!: LeadStatus;
}

@InputType({ description: 'The subsidiary a lead moves to; absent or null takes it out of any.' })
export class LeadSubsidiaryInput {
  @Field(() => String, {
    description:
      'Id of a subsidiary of the tenant the caller has access to (unknown: 404); absent or null clears it.',
    nullable: true,
  })
  subsidiaryId?: string | null;
}

@Resolver(() => Lead)
export class LeadResolver {
  @Requires(can('UPDATE', 'LEADS'))
  @Mutation(() => Lead, { description: 'Moves a lead to any status (QUALIFIED also records who and when).' })
  updateLeadStatus(
    @Arg('id', () => ID, { description: 'Id of the lead.' }) id: string,
    @Arg('input', () => LeadStatusInput, { description: 'The new status.' }) input: LeadStatusInput,
    @Ctx() ctx: Context,
  ): Promise<Lead> {
    return changeLeadStatus(ctx, id, input.status);
  }

  @Requires(can('UPDATE', 'LEADS'))
  @Mutation(() => Lead, { description: 'Moves a lead to one of the caller subsidiaries, or to none.' })
  updateLeadSubsidiary(
    @Arg('id', () => ID, { description: 'Id of the lead.' }) id: string,
    @Arg('input', () => LeadSubsidiaryInput, { description: 'The new subsidiary; `{}` clears it.' })
    input: LeadSubsidiaryInput,
    @Ctx() ctx: Context,
  ): Promise<Lead> {
    return moveLeadToSubsidiary(ctx, id, input.subsidiaryId);
  }

  @FieldResolver(() => CustomerSummary, { nullable: true, description: 'The customer `customerId` names.' })
  customer(@Root() lead: Lead, @Ctx() ctx: Context): Promise<CustomerSummary | null> {
    return customerOf(ctx, lead.customerId);
  }

  @FieldResolver(() => OpportunitySummary, {
    nullable: true,
    description: 'The opportunity `opportunityId` names.',
  })
  opportunity(@Root() lead: Lead, @Ctx() ctx: Context): Promise<OpportunitySummary | null> {
    return opportunityOf(ctx, lead.opportunityId);
  }

  @FieldResolver(() => UserSummary, { nullable: true, description: 'The user who owns the lead.' })
  owner(@Root() lead: Lead, @Ctx() ctx: Context): Promise<UserSummary | null> {
    return userOf(ctx, lead.ownerId);
  }

  @FieldResolver(() => UserSummary, { nullable: true, description: 'The user who qualified the lead.' })
  // Its id is `qualifiedBy`, not `qualifiedByUserId`: searches on `qualifiedByUser.*` follow it.
  @Extensions({ linkId: 'qualifiedBy' })
  qualifiedByUser(@Root() lead: Lead, @Ctx() ctx: Context): Promise<UserSummary | null> {
    return userOf(ctx, lead.qualifiedBy);
  }

  @FieldResolver(() => SubsidiarySummary, {
    nullable: true,
    description: 'The subsidiary `subsidiaryId` names.',
  })
  subsidiary(@Root() lead: Lead, @Ctx() ctx: Context): Promise<SubsidiarySummary | null> {
    return subsidiaryOf(ctx, lead.subsidiaryId);
  }
}
