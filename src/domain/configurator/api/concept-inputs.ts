import { Field, InputType } from 'type-graphql';
import { IsOptional, Length } from 'class-validator';
import { BuildingType, CONCEPT_DOCS } from '../entities/concept';

@InputType({ description: 'Changes to a concept; absent fields stay as they are.' })
export class UpdateConceptInput {
  @Field(() => String, { nullable: true, description: CONCEPT_DOCS.name })
  @IsOptional()
  @Length(1, 200)
  name?: string;

  @Field(() => BuildingType, { nullable: true, description: CONCEPT_DOCS.buildingType })
  buildingType?: BuildingType;
}

/** The update's fields with the name required (its validation inherited, its place kept). */
@InputType({ description: 'A new concept.' })
export class CreateConceptInput extends UpdateConceptInput {
  @Field(() => String, { description: CONCEPT_DOCS.name })
  override name!: string;
}
