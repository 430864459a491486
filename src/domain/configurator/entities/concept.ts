import { Entity } from '@mikro-orm/core';
import { ObjectType, registerEnumType } from 'type-graphql';
import { Audited } from '../../../entities/tenant-scoped';
import { EnumColumn, TenantIndexes, TextColumn } from '../../../entities/columns';

export enum BuildingType {
  ROW = 'ROW',
  DETACHED = 'DETACHED',
  SEMI_DETACHED = 'SEMI_DETACHED',
  CORNER = 'CORNER',
  APARTMENT = 'APARTMENT',
  BUNGALOW = 'BUNGALOW',
}
registerEnumType(BuildingType, {
  name: 'BuildingType',
  description: 'The kind of building a concept is for.',
  valuesConfig: {
    ROW: { description: 'A terraced (row) house.' },
    DETACHED: { description: 'A detached house.' },
    SEMI_DETACHED: { description: 'A semi-detached house.' },
    CORNER: { description: 'A corner house.' },
    APARTMENT: { description: 'An apartment.' },
    BUNGALOW: { description: 'A bungalow.' },
  },
});

/** What Concept fields mean, shared with the inputs that set them. */
export const CONCEPT_DOCS = {
  name: 'Name of the concept.',
  buildingType: 'The kind of building the concept is.',
} as const;

@Entity({ tableName: 'concept' })
@TenantIndexes('concept', 'name')
@ObjectType({ description: 'A building concept of the configurator.' })
export class Concept extends Audited {
  @TextColumn({ nullable: false, description: CONCEPT_DOCS.name })
  name!: string;

  @EnumColumn(() => BuildingType, { description: CONCEPT_DOCS.buildingType })
  buildingType?: BuildingType | null;
}
