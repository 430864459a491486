import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, Field, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { callerOf, type Context } from '../../../context';
import { Requires, superAdminOnly } from '../../../permissions/rules';
import { erasePersonIn, exportPersonIn, type PersonalExport } from '../../../services/personal-data';

const EMAIL_DOC =
  "The person's e-mail address (any case): a user, a lead's or a booking's contact, a mail's sender.";

@ObjectType({ description: 'What erasing one person changed (docs/security.md, "Personal data").' })
export class PersonalDataErasure {
  @Field(() => String, { description: 'The address erased, as matched (lower case).' })
  email!: string;

  @Field(() => String, { description: "The address that stands in for the person's wherever it was." })
  replacedBy!: string;

  @Field(() => GraphQLJSONObject, { description: 'Rows changed, by table.' })
  rows!: Record<string, number>;
}

/**
 * One person's data in the caller's tenant (GDPR articles 15 and 17): the whole export, or the
 * erasure. Both read or change every record of the tenant, whoever can see it, so both need
 * SUPER_ADMIN; an address the tenant holds nothing of is a 404.
 */
@Resolver()
export class PersonalDataResolver {
  @Requires(superAdminOnly)
  @Query(() => GraphQLJSONObject, {
    description:
      'Everything the tenant holds about one person, as one document: `person`, `about` (records, by table, in which an e-mail column is theirs) and `mentions` (records whose text or history mentions them). 404 when the tenant holds nothing about the address.',
  })
  personalData(
    @Arg('email', () => String, { description: EMAIL_DOC }) email: string,
    @Ctx() ctx: Context,
  ): Promise<PersonalExport> {
    return exportPersonIn(ctx.em, callerOf(ctx).tenantId, email);
  }

  @Requires(superAdminOnly)
  @Mutation(() => PersonalDataErasure, {
    description:
      'Erases one person in the tenant: their e-mail address, names and phone numbers are replaced in every record, history entry, event, inbox and sent mail; amounts, dates and statuses stay. 404 when the tenant holds nothing about the address.',
  })
  erasePersonalData(
    @Arg('email', () => String, { description: EMAIL_DOC }) email: string,
    @Ctx() ctx: Context,
  ): Promise<PersonalDataErasure> {
    return erasePersonIn(ctx.em, callerOf(ctx).tenantId, email);
  }
}
