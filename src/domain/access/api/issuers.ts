import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { callerOf, type Context } from '../../../context';
import { TrustedIssuer } from '../../../entities/trusted-issuer';
import { can, Requires, superAdminOnly } from '../../../permissions/rules';
import { ARG_DOCS } from '../../../schema/descriptions';
import { addIssuer, findIssuer, listIssuers, removeIssuer } from '../issuers';
import { AddTrustedIssuerInput } from './issuer-inputs';

/**
 * Trusted issuers: reading them needs READ_USERS; adding or removing one needs SUPER_ADMIN,
 * because an issuer can sign in as any user of the tenant, its administrators included.
 */
@Resolver(() => TrustedIssuer)
export class TrustedIssuerResolver {
  @Requires(can('READ', 'USERS'))
  @Query(() => [TrustedIssuer], { description: "The tenant's trusted OpenID Connect issuers." })
  trustedIssuers(@Ctx() ctx: Context): Promise<TrustedIssuer[]> {
    return listIssuers(ctx.em);
  }

  @Requires(can('READ', 'USERS'))
  @Query(() => TrustedIssuer, {
    nullable: true,
    description: 'One trusted issuer, or null when there is none.',
  })
  trustedIssuer(
    @Arg('id', () => ID, { description: ARG_DOCS.id }) id: string,
    @Ctx() ctx: Context,
  ): Promise<TrustedIssuer | null> {
    return findIssuer(ctx.em, id);
  }

  @Requires(superAdminOnly)
  @Mutation(() => TrustedIssuer, {
    description:
      'Trusts an OpenID Connect issuer: its discovery document and keys are fetched first, and a problem with them is a 400.',
  })
  addTrustedIssuer(
    @Arg('input', { description: 'The issuer.' }) input: AddTrustedIssuerInput,
    @Ctx() ctx: Context,
  ): Promise<TrustedIssuer> {
    return addIssuer(ctx.em, callerOf(ctx).tenantId, input);
  }

  @Requires(superAdminOnly)
  @Mutation(() => Boolean, {
    description: 'Stops trusting an issuer (its tokens are refused at once); false if there is none.',
  })
  removeTrustedIssuer(
    @Arg('id', () => ID, { description: ARG_DOCS.id }) id: string,
    @Ctx() ctx: Context,
  ): Promise<boolean> {
    return removeIssuer(ctx.em, id);
  }
}
