import {
  MCP_REMOTE_TRANSPORTS,
  MCP_SERVER_NAME_MAX,
  type TMcpServer,
  type TMcpServerState,
  type TMcpToolInfo,
} from "@cohort/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { failureMessage } from "../../auth/account-api";
import { Badge, type BadgeTone } from "../../components/badge";
import { Button, ButtonAnchor } from "../../components/button";
import { Card } from "../../components/card";
import { Field, FormMessage, SelectField } from "../../components/form";
import { toast } from "../../components/toast/toast-store";
import {
  addMcpServer,
  mcpServersKey,
  refreshMcpServer,
  removeMcpServer,
  useMcpServers,
} from "./mcp-servers-api";

const STATE_LABELS: Record<TMcpServerState, string> = {
  unknown: "Not checked",
  connected: "Connected",
  needs_authorization: "Sign-in needed",
  error: "Error",
};
const STATE_TONES: Record<TMcpServerState, BadgeTone> = {
  unknown: "neutral",
  connected: "success",
  needs_authorization: "warning",
  error: "danger",
};
const TRANSPORT_LABELS = { streamable_http: "Streamable HTTP", sse: "SSE (older)", stdio: "stdio" };
const RISK_LABELS: Record<TMcpToolInfo["risk"], string> = {
  read: "reads",
  write: "writes",
  external: "external",
  costly: "costly",
};
const OWNER_LABELS: Record<TMcpServer["owner"], string> = {
  user: "Yours",
  workspace: "Team",
  operator: "Set up by the operator",
};

type AuthKind = "none" | "bearer" | "oauth";

/** A server's tools with the server's own descriptions: untrusted text, shown as text. */
function ToolList({ server }: { server: TMcpServer }) {
  if (server.tools.length === 0) return null;
  return (
    <details className="mt-3">
      <summary className="cursor-pointer text-sm font-medium text-brand-700">
        {server.tools.length === 1 ? "1 tool" : `${server.tools.length} tools`}
      </summary>
      <p className="mt-2 text-xs text-ink-500">
        The descriptions below are the server's own words: Cohort passes them to models only as
        descriptions, never as instructions.
      </p>
      <ul className="mt-2 grid gap-2" aria-label={`Tools of ${server.name}`}>
        {server.tools.map((tool) => (
          <li key={tool.name} className="rounded-lg border border-ink-200 p-2.5 text-sm">
            <div className="flex flex-wrap items-center gap-2">
              <code className="text-xs font-semibold text-ink-950">{tool.qualified_name}</code>
              <Badge tone={tool.risk === "read" ? "neutral" : "warning"}>
                {RISK_LABELS[tool.risk]}
              </Badge>
            </div>
            {tool.description ? (
              <p className="mt-1 whitespace-pre-wrap break-words text-xs text-ink-700">
                {tool.description}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </details>
  );
}

function ServerRow({
  server,
  onChanged,
}: {
  server: TMcpServer;
  onChanged: (authorizationUrl: string | null) => Promise<void>;
}) {
  const [busy, setBusy] = useState<"refresh" | "remove" | null>(null);
  const [confirming, setConfirming] = useState(false);

  const refresh = async () => {
    setBusy("refresh");
    try {
      const answer = await refreshMcpServer(server.id);
      await onChanged(answer.authorization_url);
    } catch (error) {
      toast({ title: failureMessage(error, "Could not refresh the server."), variant: "error" });
    } finally {
      setBusy(null);
    }
  };
  const remove = async () => {
    setBusy("remove");
    try {
      const answer = await removeMcpServer(server.id);
      toast({ title: answer.message, variant: "success" });
      await onChanged(null);
    } catch (error) {
      toast({ title: failureMessage(error, "Could not remove the server."), variant: "error" });
      setBusy(null);
    }
  };

  return (
    <li className="rounded-xl border border-ink-200 p-4" data-testid="mcp-server">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="flex flex-wrap items-center gap-2 text-sm font-semibold text-ink-950">
            {server.name}
            <Badge tone={STATE_TONES[server.state]}>{STATE_LABELS[server.state]}</Badge>
            <Badge tone="neutral">{OWNER_LABELS[server.owner]}</Badge>
          </h3>
          <p className="mt-1 break-all text-xs text-ink-600">
            {server.url} · {TRANSPORT_LABELS[server.transport]}
            {server.auth.kind === "bearer" && server.auth.last4
              ? ` · token ending ${server.auth.last4}`
              : server.auth.kind === "oauth"
                ? " · OAuth"
                : ""}
          </p>
          {server.last_error ? (
            <p className="mt-1 text-xs font-medium text-red-700">{server.last_error}</p>
          ) : null}
        </div>
        <div className="flex gap-2">
          {server.manageable || server.owner === "operator" ? (
            <Button
              variant="secondary"
              size="sm"
              disabled={busy !== null}
              onClick={() => void refresh()}
              aria-label={`Refresh ${server.name}`}
            >
              {busy === "refresh" ? "Refreshing…" : "Refresh"}
            </Button>
          ) : null}
          {server.manageable ? (
            confirming ? (
              <>
                <Button
                  variant="primary"
                  size="sm"
                  disabled={busy !== null}
                  onClick={() => void remove()}
                >
                  {busy === "remove" ? "Removing…" : `Remove ${server.name}`}
                </Button>
                <Button variant="ghost" size="sm" onClick={() => setConfirming(false)}>
                  Keep
                </Button>
              </>
            ) : (
              <Button
                variant="outline"
                size="sm"
                onClick={() => setConfirming(true)}
                aria-label={`Remove ${server.name}`}
              >
                Remove
              </Button>
            )
          ) : null}
        </div>
      </div>
      <ToolList server={server} />
    </li>
  );
}

function AddServerForm({
  workspaceId,
  onAdded,
}: {
  workspaceId: string | undefined;
  onAdded: (authorizationUrl: string | null) => Promise<void>;
}) {
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [transport, setTransport] =
    useState<(typeof MCP_REMOTE_TRANSPORTS)[number]>("streamable_http");
  const [authKind, setAuthKind] = useState<AuthKind>("none");
  const [token, setToken] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSaving(true);
    try {
      const answer = await addMcpServer({
        ...(workspaceId ? { workspace_id: workspaceId } : {}),
        name,
        url,
        transport,
        auth: authKind === "bearer" ? { kind: "bearer", token } : { kind: authKind },
      });
      setName("");
      setUrl("");
      setToken("");
      toast({
        title:
          answer.server.state === "connected"
            ? `Connected ${answer.server.name}: ${answer.server.tools.length} tools`
            : `Added ${answer.server.name}`,
        variant: answer.server.state === "error" ? "warning" : "success",
      });
      await onAdded(answer.authorization_url);
    } catch (failure) {
      setError(failureMessage(failure, "Could not add the server."));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="mt-4 grid gap-3 border-t border-ink-100 pt-4" onSubmit={(e) => void submit(e)}>
      <h3 className="text-sm font-semibold text-ink-950">Add an MCP server</h3>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field
          label="Name"
          value={name}
          maxLength={MCP_SERVER_NAME_MAX}
          required
          onChange={(e) => setName(e.target.value)}
          hint="Its tools are named mcp__name__tool."
        />
        <Field
          label="Server URL"
          type="url"
          value={url}
          required
          placeholder="https://mcp.example.com/mcp"
          onChange={(e) => setUrl(e.target.value)}
        />
        <SelectField
          label="Transport"
          value={transport}
          onChange={(e) => setTransport(e.target.value as typeof transport)}
        >
          {MCP_REMOTE_TRANSPORTS.map((t) => (
            <option key={t} value={t}>
              {TRANSPORT_LABELS[t]}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Authentication"
          value={authKind}
          onChange={(e) => setAuthKind(e.target.value as AuthKind)}
        >
          <option value="none">None</option>
          <option value="bearer">Bearer token</option>
          <option value="oauth">OAuth (sign in at the server)</option>
        </SelectField>
        {authKind === "bearer" ? (
          <Field
            label="Token"
            type="password"
            autoComplete="off"
            value={token}
            required
            onChange={(e) => setToken(e.target.value)}
            hint="Stored encrypted; only its last four characters are shown again."
          />
        ) : null}
      </div>
      <p className="text-xs text-ink-500">
        Servers that run as a local program (stdio) cannot be added here; the operator can name them
        in the MCP servers file.
      </p>
      <FormMessage>{error}</FormMessage>
      <div>
        <Button type="submit" disabled={saving}>
          {saving ? "Connecting…" : "Add server"}
        </Button>
      </div>
    </form>
  );
}

/**
 * MCP servers as tool sources (decision 060): the caller's own in Settings, a team's in its
 * settings tab (admins manage them, members see them), the operator's listed read-only.
 */
export function McpServersSettings({
  workspaceId,
  canManage = true,
}: {
  workspaceId?: string;
  canManage?: boolean;
}) {
  const queryClient = useQueryClient();
  const { data: servers, isError } = useMcpServers(workspaceId);
  const [signInUrl, setSignInUrl] = useState<string | null>(null);
  const headingId = useId();

  const changed = async (authorizationUrl: string | null) => {
    setSignInUrl(authorizationUrl);
    await queryClient.invalidateQueries({ queryKey: mcpServersKey(workspaceId) });
  };

  return (
    <Card className="p-5 sm:p-6" data-testid="mcp-servers">
      <section aria-labelledby={headingId}>
        <h2 id={headingId} className="text-base font-semibold text-ink-950">
          MCP servers
        </h2>
        <p className="mt-1 text-sm text-ink-700">
          {workspaceId
            ? "Servers connected for this team: their tools can be chosen per role in the team's sessions."
            : "Connect your own MCP servers: their tools can be chosen per role when you start a session. Nothing is used until you choose it."}
        </p>
        {signInUrl ? (
          <div className="mt-3 flex flex-wrap items-center gap-3" role="status">
            <p className="text-sm text-ink-800">
              This server needs you to sign in at its provider.
            </p>
            <ButtonAnchor href={signInUrl} size="sm">
              Sign in to the server
            </ButtonAnchor>
          </div>
        ) : null}
        {isError ? (
          <p className="mt-3 text-sm text-red-700">Could not load the MCP servers.</p>
        ) : servers === undefined ? null : servers.length === 0 ? (
          <p className="mt-3 text-sm text-ink-600">No MCP server is connected yet.</p>
        ) : (
          <ul className="mt-3 grid gap-3" aria-label="Connected MCP servers">
            {servers.map((server) => (
              <ServerRow key={server.id} server={server} onChanged={changed} />
            ))}
          </ul>
        )}
        {canManage ? <AddServerForm workspaceId={workspaceId} onAdded={changed} /> : null}
      </section>
    </Card>
  );
}
