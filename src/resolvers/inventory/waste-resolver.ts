import { Arg, Ctx, Field, ID, InputType, Mutation, Query, Resolver } from 'type-graphql';
import { ValidateNested } from 'class-validator';
import type { Context } from '../../context';
import { WasteRecord } from '../../entities/inventory/waste-record';
import { isUuid } from '../../family/limits';
import { FamilyService } from '../../family/service';
import { can, Requires } from '../../permissions/rules';
import { CreateWasteRecordInput, wasteRecords } from './waste';

const wasteService = new FamilyService(wasteRecords);

@InputType({ description: 'A waste registration as REST sends it: the record under `dto`.' })
export class WasteRegistrationInput {
  @Field(() => CreateWasteRecordInput, { description: 'The waste record.' })
  @ValidateNested()
  dto!: CreateWasteRecordInput;
}

@Resolver(() => WasteRecord)
export class WasteRecordResolver {
  @Requires(can('CREATE', 'WASTE'))
  @Mutation(() => WasteRecord, {
    description: 'createWasteRecord with the body of POST /waste-management ({dto: {...}}).',
  })
  registerWasteRecord(
    @Arg('input', () => WasteRegistrationInput, { description: 'The waste record to register.' })
    input: WasteRegistrationInput,
    @Ctx() ctx: Context,
  ): Promise<WasteRecord> {
    return wasteService.create(ctx, input.dto);
  }

  @Requires(can('READ', 'WASTE'))
  @Query(() => [WasteRecord], { description: 'The waste records of a shift, oldest first.' })
  wasteRecordsByShift(
    @Arg('shiftId', () => ID, { description: 'Id of the shift.' }) shiftId: string,
    @Ctx() ctx: Context,
  ): Promise<WasteRecord[]> {
    if (!isUuid(shiftId)) return Promise.resolve([]);
    return wasteService.list(ctx, { shiftId });
  }
}
