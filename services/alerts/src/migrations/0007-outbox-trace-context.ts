import { Migration } from "@pulsegate/db";

export class OutboxTraceContext extends Migration {
  override async up(): Promise<void> {
    // The W3C traceparent of the request (or the work) that wrote the event: the delivery of its
    // notifications continues that trace. NULL for events written before, and for untraced work.
    this.addSql("ALTER TABLE alerts.outbox ADD COLUMN traceparent text NULL");
  }
}
