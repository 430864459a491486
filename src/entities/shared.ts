import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver, GraphQLJSON } from 'graphql-scalars';

/**
 * Shapes shared by many records (specification, "Shared shapes"), one definition each. They
 * are stored inside their record's JSON columns; each class is both the GraphQL output type and
 * (with an `Input` suffix) the input type.
 */

@ObjectType('ImageRef', { description: 'A stored image and its thumbnail.' })
@InputType('ImageRefInput', { description: 'A stored image and its thumbnail, as sent.' })
export class ImageRef {
  @Field(() => String, { description: 'Id of the stored image.', nullable: true }) blobId?: string;
  @Field(() => Int, { description: 'Height of the image in pixels.', nullable: true }) height?: number;
  @Field(() => String, { description: 'Id of the stored thumbnail.', nullable: true })
  thumbnailBlobId?: string;
  @Field(() => Int, { description: 'Width of the image in pixels.', nullable: true }) width?: number;
}

export enum FileAssetType {
  IMAGE = 'IMAGE',
  DOCUMENT = 'DOCUMENT',
  MODEL = 'MODEL',
  VIDEO = 'VIDEO',
  OTHER = 'OTHER',
}
registerEnumType(FileAssetType, {
  name: 'FileAssetType',
  description: 'What kind of file an asset is.',
  valuesConfig: {
    IMAGE: { description: 'A picture.' },
    DOCUMENT: { description: 'A document (PDF, text, spreadsheet...).' },
    MODEL: { description: 'A 3D model.' },
    VIDEO: { description: 'A video.' },
    OTHER: { description: 'Any other file.' },
  },
});

@ObjectType('FileAsset', { description: 'A stored file.' })
@InputType('FileAssetInput', { description: 'A stored file, as sent.' })
export class FileAsset {
  @Field(() => String, { description: 'Id of the stored file.', nullable: true }) blobId?: string;
  @Field(() => DateTimeISOResolver, {
    description: 'When the file was stored (ISO 8601, UTC).',
    nullable: true,
  })
  created?: string;
  @Field(() => String, { description: 'File name extension, without the dot.', nullable: true })
  extension?: string;
  @Field(() => Int, { description: 'Size of the file in bytes.', nullable: true }) fileSize?: number;
  @Field(() => String, { description: 'File name.', nullable: true }) name?: string;
  @Field(() => FileAssetType, { description: 'What kind of file it is.', nullable: true })
  type?: FileAssetType;
}

@ObjectType('PersonSummary', {
  description: 'A person as other records show them (derived from an employee).',
})
export class PersonSummary {
  @Field(() => String, { description: "Id of the person's avatar image.", nullable: true }) avatar?:
    string | null;
  @Field(() => String, { description: "The person's department.", nullable: true }) department?:
    string | null;
  @Field(() => String, { description: "The person's e-mail address.", nullable: true }) email?: string | null;
  @Field(() => String, { description: 'First and last name.', nullable: true }) fullName?: string | null;
  @Field(() => ID, { description: 'Id of the employee.' }) id!: string;
  @Field(() => String, { description: "The person's job title.", nullable: true }) jobTitle?: string | null;
}

@ObjectType('Address', { description: 'A postal address with optional coordinates.' })
@InputType('AddressInput', { description: 'A postal address with optional coordinates, as sent.' })
export class Address {
  @Field(() => String, { description: 'City.', nullable: true }) city?: string;
  @Field(() => String, { description: 'Country.', nullable: true }) country?: string;
  @Field(() => String, { description: 'House number, with any addition.', nullable: true })
  houseNumber?: string;
  @Field(() => String, { description: 'Optional id of the address, kept as sent.', nullable: true })
  id?: string;
  @Field(() => String, { description: 'Postal code.', nullable: true }) postalCode?: string;
  @Field(() => String, { description: 'Street name.', nullable: true }) street?: string;
  @Field(() => Float, { description: 'Latitude in decimal degrees (WGS 84).', nullable: true })
  latitude?: number;
  @Field(() => Float, { description: 'Longitude in decimal degrees (WGS 84).', nullable: true })
  longitude?: number;
}

/**
 * A unit a product is counted in. Its booleans have two names each; both are stored (see
 * `pairBooleans`), so reads need no resolver.
 */
@ObjectType('UnitOfMeasurement', { description: 'A unit a product is counted, bought or sold in.' })
@InputType('UnitOfMeasurementInput', {
  description: 'A unit a product is counted, bought or sold in, as sent.',
})
export class UnitOfMeasurement {
  @Field(() => Boolean, {
    description: "True for the product's base unit; same as `isBaseUnit`.",
    nullable: true,
  })
  baseUnit?: boolean;
  @Field(() => Boolean, { description: 'Same as `baseUnit`.', nullable: true }) isBaseUnit?: boolean;
  @Field(() => Float, { description: 'Cost price of one of this unit.', nullable: true }) cost?: number;
  @Field(() => Boolean, {
    description: 'True when quantities in this unit may have decimals; same as `isDecimal`.',
    nullable: true,
  })
  decimal?: boolean;
  @Field(() => Boolean, { description: 'Same as `decimal`.', nullable: true }) isDecimal?: boolean;
  @Field(() => String, { description: 'Name of the unit (for example "Box of 12").', nullable: true })
  name?: string;
  @Field(() => Float, { description: 'How many base units one of this unit holds.', nullable: true })
  quantity?: number;
  @Field(() => Float, { description: 'Sales price of one of this unit.', nullable: true })
  salesPrice?: number;
  @Field(() => String, { description: 'Unit symbol (for example "pcs", "kg", "m").', nullable: true })
  unit?: string;
}

@ObjectType('Formula', { description: 'A value given as a formula, or a constant.' })
@InputType('FormulaInput', { description: 'A value given as a formula, or a constant, as sent.' })
export class Formula {
  @Field(() => String, { description: "The formula, or the constant's value as text.", nullable: true })
  formula?: string;
  @Field(() => Boolean, {
    description: 'True when `formula` is a constant rather than an expression.',
    nullable: true,
  })
  isConstant?: boolean;
}

@ObjectType('Vector3Formula', { description: 'Three formulas: x, y, z.' })
@InputType('Vector3FormulaInput', { description: 'Three formulas (x, y, z), as sent.' })
export class Vector3Formula {
  @Field(() => Formula, { description: 'The x component.', nullable: true }) x?: Formula;
  @Field(() => Formula, { description: 'The y component.', nullable: true }) y?: Formula;
  @Field(() => Formula, { description: 'The z component.', nullable: true }) z?: Formula;
}

@ObjectType('Parameter', { description: 'A named, typed value.' })
@InputType('ParameterInput', { description: 'A named, typed value, as sent.' })
export class Parameter {
  @Field(() => String, { description: 'Name of the parameter.', nullable: true }) name?: string;
  @Field(() => String, {
    description: 'Type of the value (free text, for example "number").',
    nullable: true,
  })
  type?: string;
  @Field(() => GraphQLJSON, { description: 'The value, any JSON.', nullable: true }) value?: unknown;
}

/**
 * For shapes stored as JSON: makes both names of each boolean pair hold the same value
 * (either may be sent; both given and different is the caller's mistake, reported by `check`).
 */
export function pairBooleans<T extends object>(
  value: T,
  pairs: readonly [string, string][],
  check?: (a: string, b: string) => never,
): T {
  const out = { ...value } as Record<string, unknown>;
  for (const [a, b] of pairs) {
    const x = out[a];
    const y = out[b];
    if (x != null && y != null && x !== y && check) check(a, b);
    const v = x ?? y ?? null;
    out[a] = v;
    out[b] = v;
  }
  return out as T;
}
