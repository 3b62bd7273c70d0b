import type { Migration } from "../migrate";
import { platformMigration } from "./0001_platform";
import { mailMigration } from "./0002_mail";
import { usersMigration } from "./0003_users";
import { authMigration } from "./0004_auth";
import { agreementsMigration } from "./0005_agreements";
import { creditsMigration } from "./0006_credits";
import { billingMigration } from "./0007_billing";
import { sessionsMigration } from "./0008_sessions";
import { orchestrationMigration } from "./0009_orchestration";
import { userApiKeysMigration } from "./0010_user_api_keys";
import { cochatMigration } from "./0011_cochat";
import { creditAmountsInHundredthsMigration } from "./0012_credit_amounts_in_hundredths";
import { telemetryMigration } from "./0013_telemetry";
import { adminMigration } from "./0014_admin";
import { signInsMigration } from "./0015_sign_ins";
import { identityProviderUidMigration } from "./0016_identity_provider_uid";
import { providerKeyTestsMigration } from "./0017_provider_key_tests";
import { stepVersionsMigration } from "./0018_step_versions";
import { synthesisVersionsMigration } from "./0019_synthesis_versions";
import { accessTokensMigration } from "./0020_access_tokens";
import { documentsMigration } from "./0021_documents";
import { runDocumentsMigration } from "./0022_run_documents";
import { memoriesMigration } from "./0023_memories";
import { workspacesMigration } from "./0024_workspaces";
import { pooledCreditsMigration } from "./0025_pooled_credits";
import { templatesMigration } from "./0026_templates";
import { sessionImportsMigration } from "./0027_session_imports";
import { shareLinksMigration } from "./0028_share_links";
import { durableRunsMigration } from "./0029_durable_runs";
import { spendingLimitsMigration } from "./0030_spending_limits";
import { stepLimitsMigration } from "./0031_step_limits";
import { importOriginAndSizeMigration } from "./0033_import_origin_and_size";
import { analyticsLimitsMigration } from "./0034_analytics_limits";
import { sessionToolsMigration } from "./0035_session_tools";
import { toolApprovalsMigration } from "./0036_tool_approvals";
import { mcpServersMigration } from "./0037_mcp_servers";
import { generatedImagesMigration } from "./0040_generated_images";
import { runSourceUrlsMigration } from "./0042_run_source_urls";
import { cochatVersionsMigration } from "./0043_cochat_versions";
import { planReviewMigration } from "./0044_plan_review";
import { runInterventionsMigration } from "./0045_run_interventions";
import { messageBranchesMigration } from "./0046_message_branches";
import { runForksMigration } from "./0047_run_forks";
import { codeRunFilesMigration } from "./0048_code_run_files";

/**
 * Every schema change, one file each, applied in the order of their ids. Each module owns
 * its tables; a migration names the module it belongs to. Never edit an applied migration
 * (deployed databases record its id): add a new file and append it here. docs/schema.md is
 * the schema they build (`npm run schema:doc`).
 */
export const migrations: readonly Migration[] = [
  platformMigration,
  mailMigration,
  usersMigration,
  authMigration,
  agreementsMigration,
  creditsMigration,
  billingMigration,
  sessionsMigration,
  orchestrationMigration,
  userApiKeysMigration,
  cochatMigration,
  creditAmountsInHundredthsMigration,
  telemetryMigration,
  adminMigration,
  signInsMigration,
  identityProviderUidMigration,
  providerKeyTestsMigration,
  stepVersionsMigration,
  synthesisVersionsMigration,
  accessTokensMigration,
  documentsMigration,
  runDocumentsMigration,
  memoriesMigration,
  workspacesMigration,
  pooledCreditsMigration,
  templatesMigration,
  sessionImportsMigration,
  shareLinksMigration,
  durableRunsMigration,
  spendingLimitsMigration,
  stepLimitsMigration,
  importOriginAndSizeMigration,
  analyticsLimitsMigration,
  sessionToolsMigration,
  toolApprovalsMigration,
  mcpServersMigration,
  generatedImagesMigration,
  runSourceUrlsMigration,
  cochatVersionsMigration,
  planReviewMigration,
  runInterventionsMigration,
  messageBranchesMigration,
  runForksMigration,
  codeRunFilesMigration,
];
