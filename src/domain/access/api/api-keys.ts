import { Arg, Ctx, Field, ID, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { callerOf, type Context } from '../../../context';
import { ApiKey } from '../../../entities/api-key';
import { can, Requires } from '../../../permissions/rules';
import { ARG_DOCS } from '../../../schema/descriptions';
import { createKey, findKey, listKeys, revokeKey, rotateKey } from '../api-keys';
import { CreateApiKeyInput } from './api-key-inputs';

@ObjectType({ description: 'An API key with its whole secret (shown once).' })
export class ApiKeyWithSecret extends ApiKey {
  @Field(() => String, {
    description: 'The key, sent as `Authorization: Bearer <key>`; it is not shown again. Keep it secret.',
  })
  declare key: string;
}

@Resolver(() => ApiKey)
export class ApiKeyResolver {
  @Requires(can('READ', 'APIKEYS'))
  @Query(() => [ApiKey], { description: "The tenant's API keys (never their secrets)." })
  apiKeys(@Ctx() ctx: Context): Promise<ApiKey[]> {
    return listKeys(ctx.em);
  }

  @Requires(can('READ', 'APIKEYS'))
  @Query(() => ApiKey, { nullable: true, description: 'One API key, or null when there is none.' })
  apiKey(
    @Arg('id', () => ID, { description: ARG_DOCS.id }) id: string,
    @Ctx() ctx: Context,
  ): Promise<ApiKey | null> {
    return findKey(ctx.em, id);
  }

  @Requires(can('CREATE', 'APIKEYS'))
  @Mutation(() => ApiKeyWithSecret, {
    description:
      'Creates an API key holding permissions its creator holds (403 otherwise); the answer holds the key, once.',
  })
  createApiKey(
    @Arg('input', { description: 'The new key.' }) input: CreateApiKeyInput,
    @Ctx() ctx: Context,
  ): Promise<ApiKey> {
    return createKey(ctx.em, callerOf(ctx), input);
  }

  @Requires(can('UPDATE', 'APIKEYS'))
  @Mutation(() => ApiKeyWithSecret, {
    description: 'A new secret for the key; the old one is refused at once.',
  })
  rotateApiKey(
    @Arg('id', () => ID, { description: ARG_DOCS.id }) id: string,
    @Ctx() ctx: Context,
  ): Promise<ApiKey> {
    return rotateKey(ctx.em, id);
  }

  @Requires(can('DELETE', 'APIKEYS'))
  @Mutation(() => ApiKey, {
    description: 'Revokes the key: it is refused from the next request, on every process.',
  })
  revokeApiKey(
    @Arg('id', () => ID, { description: ARG_DOCS.id }) id: string,
    @Ctx() ctx: Context,
  ): Promise<ApiKey> {
    return revokeKey(ctx.em, id);
  }
}
