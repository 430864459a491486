import { ContactFormWidgetConfig } from '../entities/contact-form-widget';
import { Employee } from '../../reference/entities/employee';
import { prepareWidget } from '../contact-forms';
import { defineGroup } from '../../../family/group';
import { checkRefs, refsIn } from '../../../family/references';
import { CreateContactFormWidgetInput, UpdateContactFormWidgetInput } from './contact-form-widget-inputs';

export const contactFormWidgets = defineGroup({
  entity: ContactFormWidgetConfig,
  name: 'ContactFormWidget',
  plural: 'ContactFormWidgets',
  resource: 'CONTACT_FORMS',
  createInput: CreateContactFormWidgetInput,
  updateInput: UpdateContactFormWidgetInput,
  searchable: ['name', 'slug'],
  booleanPairs: [['active', 'isActive']],
  async beforeSave(ctx, widget, input) {
    await checkRefs(ctx, 404, refsIn(input, [['assignedTeamLeadId', Employee]]));
    await prepareWidget(ctx, widget, input);
  },
});
