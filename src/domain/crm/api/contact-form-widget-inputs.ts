import { Field, InputType, Int } from 'type-graphql';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsOptional,
  IsUUID,
  Length,
  Matches,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { ContactFormFieldType, CONTACT_FORM_FIELD_DOCS } from '../entities/contact-form-widget';
import { NotNullWhenGiven } from './validation';

const SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
/** What a browser sends as its Origin: no path, no trailing slash. */
const ORIGIN = /^(\*|https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?)$/;

@InputType('ContactFormFieldInput', { description: 'One input of a contact form.' })
export class ContactFormFieldInput {
  @Field(() => String, { nullable: true, description: CONTACT_FORM_FIELD_DOCS.label })
  @IsOptional()
  @MaxLength(200)
  label?: string;

  @Field(() => String, { description: 'Unique within the form.' })
  @Length(1, 100)
  name!: string;

  @Field(() => Boolean, { nullable: true, description: 'False when absent.' })
  required?: boolean;

  @Field(() => Int, { nullable: true, description: 'The position in the list when absent.' })
  @IsOptional()
  @Min(0)
  sortOrder?: number;

  @Field(() => ContactFormFieldType, { description: CONTACT_FORM_FIELD_DOCS.type })
  type!: ContactFormFieldType;
}

/** Fields shared by the create and update inputs; never used as an argument, so not in the schema. */
@InputType({ description: 'Fields shared by new widgets and changes.' })
class ContactFormWidgetFields {
  @Field(() => String, { nullable: true, description: 'What the widget is for.' })
  @IsOptional()
  @MaxLength(2000)
  description?: string;

  @Field(() => String, { nullable: true, description: 'Shown to a visitor after sending the form.' })
  @IsOptional()
  @MaxLength(2000)
  confirmationMessage?: string;

  @Field(() => String, { nullable: true, description: 'An employee id.' })
  @IsOptional()
  @IsUUID()
  assignedTeamLeadId?: string;

  @Field(() => Boolean, { nullable: true, description: 'True when a new widget leaves it out.' })
  @NotNullWhenGiven()
  @IsBoolean()
  active?: boolean;

  @Field(() => Boolean, { nullable: true, description: 'Same as `active`.' })
  @NotNullWhenGiven()
  @IsBoolean()
  isActive?: boolean;

  @Field(() => [ContactFormFieldInput], {
    nullable: true,
    description: 'The inputs of the form; replaces the list.',
  })
  @NotNullWhenGiven()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  fields?: ContactFormFieldInput[];

  @Field(() => [String], {
    nullable: true,
    description:
      'Web origins (scheme://host[:port]) allowed to send the form from a browser, or `*`; replaces the list.',
  })
  @NotNullWhenGiven()
  @IsArray()
  @ArrayMaxSize(50)
  @Matches(ORIGIN, { each: true, message: 'allowedOrigins: each must be scheme://host[:port] or *' })
  allowedOrigins?: string[];
}

@InputType({ description: 'A new contact-form widget.' })
export class CreateContactFormWidgetInput extends ContactFormWidgetFields {
  @Field(() => String, { description: 'Name of the widget.' })
  @Length(1, 200)
  name!: string;

  @Field(() => String, { description: 'Letters, digits, - and _; stored lower-case; unique in the tenant.' })
  @Length(1, 100)
  @Matches(SLUG, { message: 'slug may hold only letters, digits, - and _, and must not start with - or _' })
  slug!: string;
}

@InputType({ description: 'Changes to a contact-form widget; absent fields stay as they are.' })
export class UpdateContactFormWidgetInput extends ContactFormWidgetFields {
  @Field(() => String, { nullable: true, description: 'Name of the widget.' })
  @NotNullWhenGiven()
  @Length(1, 200)
  name?: string;

  @Field(() => String, {
    nullable: true,
    description: 'The widget address on a website: lower-cased, unique within the tenant (409).',
  })
  @NotNullWhenGiven()
  @Length(1, 100)
  @Matches(SLUG, { message: 'slug may hold only letters, digits, - and _, and must not start with - or _' })
  slug?: string;
}
