import { Ctx, Query, Resolver } from 'type-graphql';
import type { Context } from '../../../context';
import { ContactFormWidgetConfig } from '../entities/contact-form-widget';
import { FamilyService } from '../../../family/service';
import { can, Requires } from '../../../permissions/rules';
import { contactFormWidgets } from './contact-form-widgets';

const service = new FamilyService(contactFormWidgets);

@Resolver(() => ContactFormWidgetConfig)
export class ContactFormWidgetResolver {
  @Requires(can('READ', 'CONTACT_FORMS'))
  @Query(() => [ContactFormWidgetConfig], { description: 'The widgets that are active, oldest first.' })
  activeContactFormWidgets(@Ctx() ctx: Context): Promise<ContactFormWidgetConfig[]> {
    return service.list(ctx, { active: true });
  }
}
