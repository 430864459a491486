import { FlushMode } from '@mikro-orm/core';
import { ContactFormWidgetConfig, type ContactFormField } from '../../entities/crm/contact-form-widget';
import { Employee } from '../../entities/reference/employee';
import { badRequest, conflict } from '../../errors';
import { defineGroup } from '../../family/group';
import { checkRefs, refsIn } from '../../family/references';
import {
  CreateContactFormWidgetInput,
  UpdateContactFormWidgetInput,
  type ContactFormFieldInput,
} from './contact-form-widget-inputs';

/** Defaults filled in, so every stored field shows all its properties. */
function formFields(input: readonly ContactFormFieldInput[]): ContactFormField[] {
  const seen = new Set<string>();
  return input.map((f, i) => {
    if (seen.has(f.name)) throw badRequest(`fields[${i}].name: "${f.name}" is used by another field`);
    seen.add(f.name);
    return {
      label: f.label ?? null,
      name: f.name,
      required: f.required ?? false,
      sortOrder: f.sortOrder ?? i,
      type: f.type,
    };
  });
}

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
    if (input.fields) widget.fields = formFields(input.fields);
    if (input.slug !== undefined) {
      widget.slug = widget.slug.toLowerCase();
      // The unique index is the guarantee; asking first gives the client a message that says why.
      const taken = await ctx.em.count(
        ContactFormWidgetConfig,
        { slug: widget.slug, id: { $ne: widget.id } },
        { flushMode: FlushMode.COMMIT },
      );
      if (taken > 0) throw conflict(`slug "${widget.slug}" is used by another contact-form widget`);
    }
  },
});
