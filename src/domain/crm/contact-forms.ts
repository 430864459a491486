import { FlushMode } from '@mikro-orm/core';
import type { Context } from '../../context';
import { badRequest, conflict } from '../../errors';
import { ContactFormWidgetConfig, type ContactFormField } from './entities/contact-form-widget';
import type {
  ContactFormFieldInput,
  CreateContactFormWidgetInput,
  UpdateContactFormWidgetInput,
} from './api/contact-form-widget-inputs';

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

/** A widget's fields complete and uniquely named, and its slug lower-case and its own. */
export async function prepareWidget(
  ctx: Context,
  widget: ContactFormWidgetConfig,
  input: Partial<CreateContactFormWidgetInput & UpdateContactFormWidgetInput>,
): Promise<void> {
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
}
