import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { DateTimeISOResolver } from '../graphql/date-time';

/**
 * Shapes shared by many records (specification, "Shared shapes"), one definition each. They
 * are stored inside their record's JSON columns; each class is both the GraphQL output type and
 * (with an `Input` suffix) the input type.
 */

@ObjectType('ImageRef', { description: 'A stored image and its thumbnail.' })
@InputType('ImageRefInput')
export class ImageRef {
  @Field(() => String, { nullable: true }) blobId?: string;
  @Field(() => Int, { nullable: true }) height?: number;
  @Field(() => String, { nullable: true }) thumbnailBlobId?: string;
  @Field(() => Int, { nullable: true }) width?: number;
}

export enum FileAssetType {
  IMAGE = 'IMAGE',
  DOCUMENT = 'DOCUMENT',
  MODEL = 'MODEL',
  VIDEO = 'VIDEO',
  OTHER = 'OTHER',
}
registerEnumType(FileAssetType, { name: 'FileAssetType' });

@ObjectType('FileAsset', { description: 'A stored file.' })
@InputType('FileAssetInput')
export class FileAsset {
  @Field(() => String, { nullable: true }) blobId?: string;
  @Field(() => DateTimeISOResolver, { nullable: true }) created?: string;
  @Field(() => String, { nullable: true }) extension?: string;
  @Field(() => Int, { nullable: true }) fileSize?: number;
  @Field(() => String, { nullable: true }) name?: string;
  @Field(() => FileAssetType, { nullable: true }) type?: FileAssetType;
}

@ObjectType('PersonSummary', {
  description: 'A person as other records show them (derived from an employee).',
})
export class PersonSummary {
  @Field(() => String, { nullable: true }) avatar?: string | null;
  @Field(() => String, { nullable: true }) department?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) fullName?: string | null;
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) jobTitle?: string | null;
}

@ObjectType('Address', { description: 'A postal address with optional coordinates.' })
@InputType('AddressInput')
export class Address {
  @Field(() => String, { nullable: true }) city?: string;
  @Field(() => String, { nullable: true }) country?: string;
  @Field(() => String, { nullable: true }) houseNumber?: string;
  @Field(() => String, { nullable: true }) id?: string;
  @Field(() => String, { nullable: true }) postalCode?: string;
  @Field(() => String, { nullable: true }) street?: string;
  @Field(() => Float, { nullable: true }) latitude?: number;
  @Field(() => Float, { nullable: true }) longitude?: number;
}

/**
 * A unit a product is counted in. Its booleans have two names each; both are stored (see
 * `pairBooleans`), so reads need no resolver.
 */
@ObjectType('UnitOfMeasurement', { description: 'A unit a product is counted, bought or sold in.' })
@InputType('UnitOfMeasurementInput')
export class UnitOfMeasurement {
  @Field(() => Boolean, { nullable: true }) baseUnit?: boolean;
  @Field(() => Boolean, { nullable: true }) isBaseUnit?: boolean;
  @Field(() => Float, { nullable: true }) cost?: number;
  @Field(() => Boolean, { nullable: true }) decimal?: boolean;
  @Field(() => Boolean, { nullable: true }) isDecimal?: boolean;
  @Field(() => String, { nullable: true }) name?: string;
  @Field(() => Float, { nullable: true }) quantity?: number;
  @Field(() => Float, { nullable: true }) salesPrice?: number;
  @Field(() => String, { nullable: true }) unit?: string;
}

@ObjectType('Formula', { description: 'A value given as a formula, or a constant.' })
@InputType('FormulaInput')
export class Formula {
  @Field(() => String, { nullable: true }) formula?: string;
  @Field(() => Boolean, { nullable: true }) isConstant?: boolean;
}

@ObjectType('Vector3Formula', { description: 'Three formulas: x, y, z.' })
@InputType('Vector3FormulaInput')
export class Vector3Formula {
  @Field(() => Formula, { nullable: true }) x?: Formula;
  @Field(() => Formula, { nullable: true }) y?: Formula;
  @Field(() => Formula, { nullable: true }) z?: Formula;
}

@ObjectType('Parameter', { description: 'A named, typed value.' })
@InputType('ParameterInput')
export class Parameter {
  @Field(() => String, { nullable: true }) name?: string;
  @Field(() => String, { nullable: true }) type?: string;
  @Field(() => GraphQLJSON, { nullable: true }) value?: unknown;
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
