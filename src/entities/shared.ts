import { Field, Float, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { DateTimeISOResolver } from '../schema/date-time';

/**
 * Shapes shared by many records (specification, "Shared shapes"), one definition each. They
 * are stored inside their record's JSON columns; each class is both the GraphQL output type and
 * (with an `Input` suffix) the input type.
 */

@ObjectType('ImageRef', { description: 'A stored image and its thumbnail.' })
@InputType('ImageRefInput', { description: 'A stored image and its thumbnail, as sent.' })
export class ImageRef {
  @Field(() => String, { nullable: true, description: 'Id of the stored image.' }) blobId?: string;
  @Field(() => Int, { nullable: true, description: 'Height of the image in pixels.' }) height?: number;
  @Field(() => String, { nullable: true, description: 'Id of the stored thumbnail.' })
  thumbnailBlobId?: string;
  @Field(() => Int, { nullable: true, description: 'Width of the image in pixels.' }) width?: number;
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
  @Field(() => String, { nullable: true, description: 'Id of the stored file.' }) blobId?: string;
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'When the file was stored (ISO 8601, UTC).',
  })
  created?: string;
  @Field(() => String, { nullable: true, description: 'File name extension, without the dot.' })
  extension?: string;
  @Field(() => Int, { nullable: true, description: 'Size of the file in bytes.' }) fileSize?: number;
  @Field(() => String, { nullable: true, description: 'File name.' }) name?: string;
  @Field(() => FileAssetType, { nullable: true, description: 'What kind of file it is.' })
  type?: FileAssetType;
}

@ObjectType('Address', { description: 'A postal address with optional coordinates.' })
@InputType('AddressInput', { description: 'A postal address with optional coordinates, as sent.' })
export class Address {
  @Field(() => String, { nullable: true, description: 'City.' }) city?: string;
  @Field(() => String, { nullable: true, description: 'Country.' }) country?: string;
  @Field(() => String, { nullable: true, description: 'House number, with any addition.' })
  houseNumber?: string;
  @Field(() => String, { nullable: true, description: 'Optional id of the address, kept as sent.' })
  id?: string;
  @Field(() => String, { nullable: true, description: 'Postal code.' }) postalCode?: string;
  @Field(() => String, { nullable: true, description: 'Street name.' }) street?: string;
  @Field(() => Float, { nullable: true, description: 'Latitude in decimal degrees (WGS 84).' })
  latitude?: number;
  @Field(() => Float, { nullable: true, description: 'Longitude in decimal degrees (WGS 84).' })
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
    nullable: true,
    description: "True for the product's base unit; same as `isBaseUnit`.",
  })
  baseUnit?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'Same as `baseUnit`.' }) isBaseUnit?: boolean;
  @Field(() => Float, { nullable: true, description: 'Cost price of one of this unit.' }) cost?: number;
  @Field(() => Boolean, {
    nullable: true,
    description: 'True when quantities in this unit may have decimals; same as `isDecimal`.',
  })
  decimal?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'Same as `decimal`.' }) isDecimal?: boolean;
  @Field(() => String, { nullable: true, description: 'Name of the unit (for example "Box of 12").' })
  name?: string;
  @Field(() => Float, { nullable: true, description: 'How many base units one of this unit holds.' })
  quantity?: number;
  @Field(() => Float, { nullable: true, description: 'Sales price of one of this unit.' })
  salesPrice?: number;
  @Field(() => String, { nullable: true, description: 'Unit symbol (for example "pcs", "kg", "m").' })
  unit?: string;
}

@ObjectType('Formula', { description: 'A value given as a formula, or a constant.' })
@InputType('FormulaInput', { description: 'A value given as a formula, or a constant, as sent.' })
export class Formula {
  @Field(() => String, { nullable: true, description: "The formula, or the constant's value as text." })
  formula?: string;
  @Field(() => Boolean, {
    nullable: true,
    description: 'True when `formula` is a constant rather than an expression.',
  })
  isConstant?: boolean;
}

@ObjectType('Vector3Formula', { description: 'Three formulas: x, y, z.' })
@InputType('Vector3FormulaInput', { description: 'Three formulas (x, y, z), as sent.' })
export class Vector3Formula {
  @Field(() => Formula, { nullable: true, description: 'The x component.' }) x?: Formula;
  @Field(() => Formula, { nullable: true, description: 'The y component.' }) y?: Formula;
  @Field(() => Formula, { nullable: true, description: 'The z component.' }) z?: Formula;
}

@ObjectType('Parameter', { description: 'A named, typed value.' })
@InputType('ParameterInput', { description: 'A named, typed value, as sent.' })
export class Parameter {
  @Field(() => String, { nullable: true, description: 'Name of the parameter.' }) name?: string;
  @Field(() => String, {
    nullable: true,
    description: 'Type of the value (free text, for example "number").',
  })
  type?: string;
  @Field(() => GraphQLJSON, { nullable: true, description: 'The value, any JSON.' }) value?: unknown;
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
