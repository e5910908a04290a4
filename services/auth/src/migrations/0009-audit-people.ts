import { Migration } from "@pulsegate/db";

/**
 * The audit log names people signed in through the identity provider: actor kind `user` (actor_id
 * their subject, actor_name their name) and their email.
 */
export class AuditPeople extends Migration {
  override async up(): Promise<void> {
    this.addSql("ALTER TABLE auth.audit_log ADD COLUMN actor_email text NULL");
    // Widened, not narrowed: every kind the previous release writes stays allowed.
    this.addSql(`-- reviewed contract: 84b40e6 — the check is replaced by a wider one in the next statement
      ALTER TABLE auth.audit_log DROP CONSTRAINT audit_log_actor_kind_check`);
    this.addSql(`-- reviewed contract: 84b40e6 — a wider check than the one it replaces: no stored row breaks it
      ALTER TABLE auth.audit_log ADD CONSTRAINT audit_log_actor_kind_check
        CHECK (actor_kind IN ('admin', 'api_key', 'user')) NOT VALID`);
    this.addSql("ALTER TABLE auth.audit_log VALIDATE CONSTRAINT audit_log_actor_kind_check");
  }
}
