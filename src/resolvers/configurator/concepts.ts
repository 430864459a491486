import { Field, InputType } from 'type-graphql';
import { IsOptional, Length } from 'class-validator';
import { BuildingType, Concept } from '../../entities/configurator/concept';
import { defineGroup } from '../../family/group';

@InputType({ description: 'A new concept.' })
export class CreateConceptInput {
  @Field(() => String)
  @Length(1, 200)
  name!: string;

  @Field(() => BuildingType, { nullable: true })
  buildingType?: BuildingType;
}

@InputType({ description: 'Changes to a concept; absent fields stay as they are.' })
export class UpdateConceptInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, 200)
  name?: string;

  @Field(() => BuildingType, { nullable: true })
  buildingType?: BuildingType;
}

export const concepts = defineGroup({
  entity: Concept,
  name: 'Concept',
  plural: 'Concepts',
  resource: 'CONCEPTS',
  createInput: CreateConceptInput,
  updateInput: UpdateConceptInput,
  searchable: ['name'],
});
