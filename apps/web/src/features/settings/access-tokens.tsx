import {
  ACCESS_TOKEN_EXPIRY_DAYS,
  ACCESS_TOKEN_MESSAGES,
  ACCESS_TOKEN_NAME_MAX_LENGTH,
  ACCESS_TOKEN_SCOPE_LABELS,
  ACCESS_TOKEN_SCOPES,
  type TAccessTokenInfo,
  type TAccessTokenScope,
  type TCreatedAccessTokenResponse,
} from "@cohort/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { failureMessage } from "../../auth/account-api";
import { Badge } from "../../components/badge";
import { Button } from "../../components/button";
import { cn } from "../../components/cn";
import { ConfirmButtons } from "../../components/confirm-buttons";
import { DialogFrame } from "../../components/dialog-frame";
import { Field, FormMessage, inputClasses, SelectField } from "../../components/form";
import { SectionCard, SectionLoadError, SectionLoading } from "../../components/section-header";
import { Spinner } from "../../components/spinner";
import { toast } from "../../components/toast/toast-store";
import { useConfirmedAction } from "../../components/use-confirmed-action";
import { formatDateTime, formatShortDate } from "../../lib/format/dates";
import {
  ACCESS_TOKENS_QUERY_KEY,
  createAccessToken,
  revokeAccessToken,
  useAccessTokens,
} from "./access-tokens-api";

/** The expiry select's value: a number of days, or "never". */
type ExpiryChoice = `${(typeof ACCESS_TOKEN_EXPIRY_DAYS)[number]}` | "never";
const DEFAULT_EXPIRY: ExpiryChoice = "90";

function expiryLabel(days: number): string {
  return days === 365 ? "1 year" : `${days} days`;
}

function isExpired(token: TAccessTokenInfo): boolean {
  return token.expires_at !== null && Date.parse(token.expires_at) <= Date.now();
}

/** Copies the text; without the Clipboard API (no permission, insecure page) selects it instead. */
async function copyToClipboard(text: string, fallback: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    fallback?.select();
    return false;
  }
}

function TokenRow({ token }: { token: TAccessTokenInfo }) {
  const queryClient = useQueryClient();
  const revocation = useConfirmedAction((error) =>
    failureMessage(error, "Could not revoke the token."),
  );
  const expired = isExpired(token);
  const inactive = token.revoked_at !== null || expired;

  const revoke = () =>
    revocation.run(async () => {
      await revokeAccessToken(token.id);
      toast({ title: `Token "${token.name}" revoked`, variant: "success" });
      await queryClient.invalidateQueries({ queryKey: ACCESS_TOKENS_QUERY_KEY });
    });

  return (
    <li
      className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between"
      data-testid="access-token-row"
    >
      <div className={cn("min-w-0", inactive && "opacity-70")}>
        <p className="flex flex-wrap items-center gap-2 text-sm font-semibold text-ink-950">
          <span className="break-all">{token.name}</span>
          {token.revoked_at ? (
            <Badge tone="danger">Revoked</Badge>
          ) : expired ? (
            <Badge tone="warning">Expired</Badge>
          ) : null}
        </p>
        <p className="mt-1 font-mono text-xs text-ink-600">
          <span className="sr-only">Token ending in </span>
          <span aria-hidden="true">{token.prefix}…</span>
          {token.last4}
        </p>
        <p className="mt-1 flex flex-wrap gap-1.5">
          {token.scopes.map((scope) => (
            <Badge key={scope} tone="neutral" title={ACCESS_TOKEN_SCOPE_LABELS[scope]}>
              {scope}
            </Badge>
          ))}
        </p>
        <p className="mt-1 text-xs text-ink-500">
          Created {formatShortDate(token.created_at)}
          {" · "}
          {token.revoked_at
            ? `revoked ${formatShortDate(token.revoked_at)}`
            : token.expires_at
              ? `${expired ? "expired" : "expires"} ${formatShortDate(token.expires_at)}`
              : "never expires"}
        </p>
        <p className="mt-0.5 text-xs text-ink-500" data-testid="access-token-last-used">
          {token.last_used_at
            ? `Last used ${formatDateTime(token.last_used_at)}${
                token.last_used_ip ? ` from ${token.last_used_ip}` : ""
              }`
            : "Never used"}
        </p>
      </div>
      {token.revoked_at ? null : revocation.confirming ? (
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-sm text-ink-700">Revoke? Code using it stops working at once.</span>
          <ConfirmButtons
            action="Revoke"
            pendingAction="Revoking…"
            pending={revocation.pending}
            onConfirm={revoke}
            onCancel={revocation.cancel}
          />
        </div>
      ) : (
        <Button
          size="sm"
          variant="outline"
          onClick={revocation.ask}
          aria-label={`Revoke token ${token.name}`}
        >
          Revoke
        </Button>
      )}
    </li>
  );
}

function CreateTokenForm({ onCreated }: { onCreated(created: TCreatedAccessTokenResponse): void }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<TAccessTokenScope[]>(["chat"]);
  const [expiry, setExpiry] = useState<ExpiryChoice>(DEFAULT_EXPIRY);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const toggle = (scope: TAccessTokenScope, on: boolean) => {
    setError(null);
    setScopes((current) =>
      on ? [...current, scope] : current.filter((existing) => existing !== scope),
    );
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    if (!name.trim()) {
      setError("Give the token a name, e.g. where it will be used.");
      return;
    }
    if (scopes.length === 0) {
      setError("Choose at least one scope.");
      return;
    }
    setBusy(true);
    try {
      const created = await createAccessToken({
        name: name.trim(),
        scopes: ACCESS_TOKEN_SCOPES.filter((scope) => scopes.includes(scope)),
        expires_in_days: expiry === "never" ? null : Number(expiry),
      });
      await queryClient.invalidateQueries({ queryKey: ACCESS_TOKENS_QUERY_KEY });
      onCreated(created);
    } catch (cause) {
      setError(failureMessage(cause, "Could not create the token. Please try again."));
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} className="grid gap-5 px-5 py-5 sm:px-6" autoComplete="off">
      <Field
        label="Name"
        name="access-token-name"
        required
        maxLength={ACCESS_TOKEN_NAME_MAX_LENGTH}
        placeholder="e.g. CI pipeline, my laptop"
        value={name}
        onChange={(event) => {
          setName(event.target.value);
          setError(null);
        }}
        hint="Where the token will be used, so you recognise it later."
      />
      <fieldset>
        <legend className="text-sm font-medium text-ink-800">Scopes</legend>
        <div className="mt-2 grid gap-2">
          {ACCESS_TOKEN_SCOPES.map((scope) => (
            <label
              key={scope}
              className="flex items-start gap-3 rounded-lg border border-ink-200 px-3 py-2.5 text-sm has-checked:border-brand-300 has-checked:bg-brand-50/50"
            >
              <input
                type="checkbox"
                className="mt-0.5 size-4 accent-brand-600"
                checked={scopes.includes(scope)}
                onChange={(event) => toggle(scope, event.target.checked)}
              />
              <span>
                <span className="font-mono font-semibold text-ink-950">{scope}</span>
                <span className="block text-xs text-ink-600">
                  {ACCESS_TOKEN_SCOPE_LABELS[scope]}
                </span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <SelectField
        id={`${id}-expiry`}
        label="Expires"
        value={expiry}
        onChange={(event) => setExpiry(event.target.value as ExpiryChoice)}
      >
        {ACCESS_TOKEN_EXPIRY_DAYS.map((days) => (
          <option key={days} value={String(days)}>
            In {expiryLabel(days)}
          </option>
        ))}
        <option value="never">Never</option>
      </SelectField>
      <FormMessage>{error}</FormMessage>
      <div className="flex justify-end">
        <Button type="submit" disabled={busy}>
          {busy ? <Spinner size="sm" label="Creating the token…" /> : null}
          {busy ? "Creating…" : "Create token"}
        </Button>
      </div>
    </form>
  );
}

/** The new token, this once: copy it now or never. */
function NewToken({ created, onDone }: { created: TCreatedAccessTokenResponse; onDone(): void }) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<"copied" | "select" | null>(null);
  const copy = async () => {
    setCopied((await copyToClipboard(created.token, input.current)) ? "copied" : "select");
  };
  return (
    <div className="grid gap-4 px-5 py-5 sm:px-6" data-testid="new-access-token">
      <p
        role="alert"
        className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2.5 text-sm text-amber-950"
      >
        <strong className="font-semibold">{ACCESS_TOKEN_MESSAGES.shownOnce}</strong> Store it
        somewhere safe, like a password manager or your CI's secrets. Anyone with it can use your
        credits.
      </p>
      <div>
        <label htmlFor="new-access-token-value" className="block text-sm font-medium text-ink-800">
          Token "{created.info.name}"
        </label>
        <div className="mt-1.5 flex gap-2">
          <input
            ref={input}
            id="new-access-token-value"
            readOnly
            value={created.token}
            onFocus={(event) => event.currentTarget.select()}
            className={cn(inputClasses, "font-mono text-xs")}
            spellCheck={false}
          />
          <Button variant="outline" onClick={copy} aria-label="Copy the token">
            {copied === "copied" ? "Copied" : "Copy"}
          </Button>
        </div>
        <p className="mt-1.5 text-xs text-ink-500" role="status">
          {copied === "copied"
            ? "Token copied to the clipboard."
            : copied === "select"
              ? "Could not reach the clipboard: the token is selected, press Ctrl+C (⌘C) to copy it."
              : `Send it as the header Authorization: Bearer ${created.info.prefix}…`}
        </p>
      </div>
      <div className="flex justify-end">
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}

/**
 * Settings → Access tokens: tokens that let the user's own code call Cohort's API (the
 * OpenAI-compatible /api/v1 and the MCP server). Not the provider keys: those are the user's
 * keys for other companies' models.
 */
export function AccessTokens() {
  const tokens = useAccessTokens();
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<TCreatedAccessTokenResponse | null>(null);
  const [formKey, setFormKey] = useState(0);

  const openChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      // The token is forgotten with the dialog: it is never shown again.
      setCreated(null);
      setFormKey((key) => key + 1);
    }
  };

  return (
    <SectionCard
      id="access-tokens-title"
      title="Access tokens"
      lead={
        <>
          Access tokens let your own code and tools call Cohort's API (the OpenAI-compatible{" "}
          <code className="font-mono text-xs">/api/v1</code> endpoints and the MCP server) as you,
          spending your credits. They are not the provider keys above.{" "}
          <Link to="/api" className="font-semibold text-brand-700 hover:underline">
            Read the API docs
          </Link>
        </>
      }
      action={<Button onClick={() => openChange(true)}>Create token</Button>}
    >
      {tokens.isPending ? (
        <SectionLoading label="Loading your access tokens…" />
      ) : tokens.isError ? (
        <SectionLoadError>
          Could not load your access tokens. Please reload the page.
        </SectionLoadError>
      ) : tokens.data.length === 0 ? (
        <p className="mt-4 text-sm text-ink-500 italic">No access tokens yet.</p>
      ) : (
        <ul className="mt-2 divide-y divide-ink-200" data-testid="access-tokens-list">
          {tokens.data.map((token) => (
            <TokenRow key={token.id} token={token} />
          ))}
        </ul>
      )}
      <DialogFrame
        open={open}
        onOpenChange={openChange}
        title={created ? "Your new access token" : "Create an access token"}
        description={
          created ? undefined : "For scripts, CI and MCP clients that call Cohort's API as you."
        }
        testId="access-token-dialog"
      >
        {created ? (
          <NewToken created={created} onDone={() => openChange(false)} />
        ) : (
          <CreateTokenForm key={formKey} onCreated={setCreated} />
        )}
      </DialogFrame>
    </SectionCard>
  );
}
