import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { Context } from '../../../context';
import { WasteRecord } from '../entities/waste-record';
import { FamilyService } from '../../../family/service';
import { can, Requires } from '../../../permissions/rules';
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
}
