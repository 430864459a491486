import { Entity, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Audited } from '../../../entities/tenant-scoped';
import {
  BooleanPairColumn,
  JsonColumn,
  TenantIndexes,
  TextColumn,
  UuidColumn,
} from '../../../entities/columns';

export enum ContactFormFieldType {
  TEXT = 'TEXT',
  EMAIL = 'EMAIL',
  PHONE = 'PHONE',
  TEXTAREA = 'TEXTAREA',
  SELECT = 'SELECT',
  CHECKBOX = 'CHECKBOX',
  DATE = 'DATE',
  NUMBER = 'NUMBER',
}
registerEnumType(ContactFormFieldType, {
  name: 'ContactFormFieldType',
  description: 'The kind of input a contact-form field shows.',
  valuesConfig: {
    TEXT: { description: 'A one-line text.' },
    EMAIL: { description: 'An e-mail address.' },
    PHONE: { description: 'A phone number.' },
    TEXTAREA: { description: 'A multi-line text.' },
    SELECT: { description: 'A choice from a list.' },
    CHECKBOX: { description: 'A yes/no box.' },
    DATE: { description: 'A date.' },
    NUMBER: { description: 'A number.' },
  },
});

/** What ContactFormField fields mean, shared with the inputs that set them. */
export const CONTACT_FORM_FIELD_DOCS = {
  label: 'The label shown next to the input.',
  type: 'The kind of input.',
} as const;

@ObjectType('ContactFormField', { description: 'One input of a contact form.' })
export class ContactFormField {
  @Field(() => String, { nullable: true, description: CONTACT_FORM_FIELD_DOCS.label }) label!: string | null;
  @Field(() => String, { description: 'The key the submitted value is sent under.' }) name!: string;
  @Field(() => Boolean, { description: 'True when the form cannot be sent without it.' }) required!: boolean;
  @Field(() => Int, { description: 'Position on the form, lowest first.' }) sortOrder!: number;
  @Field(() => ContactFormFieldType, { description: CONTACT_FORM_FIELD_DOCS.type })
  type!: ContactFormFieldType;
}

@Entity({ tableName: 'contact_form_widget_config' })
@Unique({ name: 'contact_form_widget_config_tenant_slug_uq', properties: ['tenantId', 'slug'] })
@TenantIndexes('contact_form_widget_config', 'name', 'active', 'assignedTeamLeadId')
@ObjectType({ description: 'A contact form that can be embedded in a website (a widget).' })
export class ContactFormWidgetConfig extends Audited {
  @TextColumn({ nullable: false, description: 'Name of the widget.' })
  name!: string;

  /** Lower-case and unique within the tenant: the widget's address on a website. */
  @TextColumn({ nullable: false, description: 'The widget address on a website; unique within the tenant.' })
  slug!: string;

  @TextColumn({ description: 'What the widget is for.' })
  description?: string | null;

  @TextColumn({ description: 'Shown to a visitor after sending the form.' })
  confirmationMessage?: string | null;

  @UuidColumn({ description: 'The employee who follows up on submissions.' })
  assignedTeamLeadId?: string | null;

  @BooleanPairColumn('isActive', {
    nullable: false,
    description: 'True when the widget accepts submissions; same as `isActive`.',
    aliasDescription: 'Same as `active`.',
  })
  active: boolean = true;

  @JsonColumn(() => [ContactFormField], {
    nullable: false,
    description: 'The inputs of the form, in `sortOrder`.',
  })
  fields: ContactFormField[] = [];

  /**
   * The web origins whose pages may send the form from a browser (CORS on the public route);
   * an empty list admits none, so a new widget is reachable from no site until it names one.
   */
  @JsonColumn(() => [String], {
    nullable: false,
    description:
      'The web origins (scheme://host[:port]) whose pages may send the form from a browser; `*` for any.',
  })
  allowedOrigins: string[] = [];
}
