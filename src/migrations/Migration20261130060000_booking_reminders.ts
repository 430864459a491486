import { Migration } from '@mikro-orm/migrations';

/**
 * When a booking's visitor was reminded of the meeting (`booking.reminded_at`), stamped once by
 * the bookings job (src/domain/crm/booking-jobs.ts): the stamp is how two runs, or two processes,
 * know the reminder went already. The job looks for CONFIRMED bookings by start time, which
 * `booking_tenant_status_idx` and `booking_tenant_start_time_idx` already serve.
 */
export class Migration20261130060000_booking_reminders extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "booking" add column "reminded_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "booking" drop column "reminded_at";`);
  }
}
