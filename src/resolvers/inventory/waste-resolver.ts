import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import { WasteRecord } from '../../entities/inventory/waste-record';
import { isUuid } from '../../family/limits';
import { FamilyService } from '../../family/service';
import { can, Requires } from '../../permissions/rules';
import { wasteRecords } from './waste';
import { WasteRegistrationInput } from './waste-record-inputs';

const wasteService = new FamilyService(wasteRecords);

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
