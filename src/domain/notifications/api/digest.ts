import { Ctx, Field, ID, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { callerOf, type Context } from '../../../context';
import { conflict, forbidden } from '../../../errors';
import { previewDigest, requestDigest, type DigestPreview } from '../../../events/digest';
import { activeEventSettings } from '../../../events/settings';
import { requestQuery } from '../../../events/store';
import { DateTimeISOResolver } from '../../../schema/date-time';
import { authenticated, Requires } from '../../../permissions/rules';
import { NotificationCategory } from '../entities/notification';
import { DigestFrequency } from '../entities/notification-settings';

@ObjectType('DigestItem', { description: 'A notification as a digest lists it.' })
export class DigestItem {
  @Field(() => String, { nullable: true, description: 'Its title.' }) title!: string | null;
  @Field(() => String, { nullable: true, description: 'Its text.' }) body!: string | null;
  @Field(() => String, { nullable: true, description: 'Its link (shown when http or https).' })
  actionUrl!: string | null;
  @Field(() => NotificationCategory, { description: 'Its category.' }) category!: NotificationCategory;
  @Field(() => DateTimeISOResolver, { description: 'When it was created.' }) created!: Date;
}

@ObjectType('DigestPreview', {
  description:
    'The digest the caller would receive if it were sent now: what it covers, what it lists and the e-mail itself (docs/events.md, "Digests").',
})
export class DigestPreviewView {
  @Field(() => DigestFrequency, {
    description: "The caller's digest frequency; OFF: no digest would be sent (and `from` and `to` are now).",
  })
  frequency!: DigestFrequency;
  @Field(() => DateTimeISOResolver, {
    description:
      'Where it starts: the end of the last digest, or the start of the period that ended last when that digest has not been made yet.',
  })
  from!: Date;
  @Field(() => DateTimeISOResolver, { description: 'Where it ends: now.' }) to!: Date;
  @Field(() => Int, {
    description: 'How many notifications it covers that the caller’s categories and scopes let through.',
  })
  total!: number;
  @Field(() => [DigestItem], {
    description: 'The first 50 of them, oldest first (the e-mail counts the rest).',
  })
  notifications!: DigestItem[];
  @Field(() => String, {
    nullable: true,
    description: "The e-mail's subject; null when nothing would be sent.",
  })
  subject!: string | null;
  @Field(() => String, {
    nullable: true,
    description: "The e-mail's plain text; null when nothing would be sent.",
  })
  text!: string | null;
  @Field(() => String, { nullable: true, description: "The e-mail's HTML; null when nothing would be sent." })
  html!: string | null;
}

@ObjectType('DigestRequest', {
  description: 'A digest asked for now: queued for sending, and what it holds.',
})
export class DigestRequestView {
  @Field(() => ID, { description: 'The delivery that sends it (channel DIGEST), through the event worker.' })
  deliveryId!: string;
  @Field(() => DigestPreviewView, { description: 'The digest as it will be sent.' })
  digest!: DigestPreviewView;
}

const OFF =
  'your digests are off: set digestFrequency to DAILY or WEEKLY (PUT /notifications/settings/me) first';

function viewOf(preview: DigestPreview | { off: true }, now = new Date()): DigestPreviewView {
  if (preview.off)
    return {
      frequency: DigestFrequency.OFF,
      from: now,
      to: now,
      total: 0,
      notifications: [],
      subject: null,
      text: null,
      html: null,
    };
  return {
    frequency: preview.frequency as DigestFrequency,
    from: preview.from,
    to: preview.to,
    total: preview.content?.total ?? 0,
    notifications: (preview.content?.items ?? []).map((n) => ({
      ...n,
      category: n.category as NotificationCategory,
      created: new Date(n.created),
    })),
    subject: preview.mail?.subject ?? null,
    text: preview.mail?.text ?? null,
    html: preview.mail?.html ?? null,
  };
}

/** The user a digest is for: the caller, never an API key (which receives no mail). */
function digestUser(ctx: Context): { tenantId: string; userId: string } {
  const caller = callerOf(ctx);
  if (caller.apiKey) throw forbidden('an API key receives no digest; use a user’s credential');
  return { tenantId: caller.tenantId, userId: caller.userId };
}

/** A caller's digest, tried: shown as it would be sent now, or sent now. */
@Resolver()
export class DigestResolver {
  @Requires(authenticated)
  @Query(() => DigestPreviewView, {
    description:
      'The digest the caller would receive if it were sent now (their frequency, since their last digest); nothing is sent.',
  })
  async myDigestPreview(@Ctx() ctx: Context): Promise<DigestPreviewView> {
    const { tenantId, userId } = digestUser(ctx);
    return viewOf(await previewDigest(requestQuery(ctx.em), activeEventSettings(), tenantId, userId));
  }

  @Requires(authenticated)
  @Mutation(() => DigestRequestView, {
    description:
      'Sends the caller their digest now, through the outbox as every digest goes (the next scheduled one starts where this one ends); 409 while digests are off or when it would list nothing.',
  })
  async sendMyDigest(@Ctx() ctx: Context): Promise<DigestRequestView> {
    const { tenantId, userId } = digestUser(ctx);
    const { preview, deliveryId } = await requestDigest(
      requestQuery(ctx.em),
      activeEventSettings(),
      tenantId,
      userId,
    );
    if (preview.off) throw conflict(OFF);
    const digest = viewOf(preview);
    if (digest.total === 0)
      throw conflict(
        `nothing to send: no notification your categories and scopes let through since ${digest.from.toISOString()}`,
      );
    if (!deliveryId) throw conflict('a digest was asked for at this very moment already; retry');
    return { deliveryId, digest };
  }
}
