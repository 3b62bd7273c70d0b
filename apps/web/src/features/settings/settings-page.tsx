import { useAuth } from "../../auth/use-auth";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { McpServersSettings } from "../mcp-servers/mcp-servers-settings";
import { MemorySettings } from "../memory/memory-settings";
import { TemplatesSettings } from "../templates/templates-settings";
import { WorkspaceSettings } from "../workspaces/workspace-settings";
import { AccessTokens } from "./access-tokens";
import { AnalyticsPreference } from "./analytics-preference";
import { LinkedAccounts } from "./linked-accounts";
import { LocalModels } from "./local-models";
import { ProfileForm } from "./profile-form";
import { ProviderKeys } from "./provider-keys";
import { SignInsList } from "./sign-ins-list";
import { SpendingLimit } from "./spending-limit";
import { YourData } from "./your-data";

export function SettingsPage() {
  useDocumentMeta({ title: "Settings" });
  const { user } = useAuth();
  if (!user) return null;
  return (
    <div className="mx-auto grid max-w-3xl gap-6 px-4 py-8 sm:px-6 lg:px-10 lg:py-10">
      <h1 className="text-2xl font-bold tracking-tight text-ink-950 sm:text-3xl">Settings</h1>
      <ProfileForm key={user.id} user={user} />
      <WorkspaceSettings />
      <SpendingLimit />
      <ProviderKeys />
      <LocalModels />
      <McpServersSettings />
      <MemorySettings />
      <TemplatesSettings />
      <AccessTokens />
      <LinkedAccounts />
      <SignInsList />
      <AnalyticsPreference />
      <YourData email={user.email} />
    </div>
  );
}
