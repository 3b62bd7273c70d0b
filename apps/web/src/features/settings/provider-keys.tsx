import {
  API_KEY_ERROR_CODES,
  API_KEY_TEST_RESULT_LABELS,
  apiKeyFormatProblem,
  PROVIDER_IDS,
  PROVIDER_NAMES,
  PROVIDERS_WITH_BASE_URL,
  type TApiKeyInfo,
  type TApiKeyRequest,
  type TApiKeyTestResult,
  type TProviderId,
  type TTestApiKeyResponse,
  ZApiKeyTestFailedDetails,
} from "@cohort/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { failureMessage } from "../../auth/account-api";
import { Button } from "../../components/button";
import { cn } from "../../components/cn";
import { ConfirmButtons } from "../../components/confirm-buttons";
import { Field, FormMessage, SelectField } from "../../components/form";
import { SectionCard, SectionLoading } from "../../components/section-header";
import { Spinner } from "../../components/spinner";
import { toast } from "../../components/toast/toast-store";
import { useConfirmedAction } from "../../components/use-confirmed-action";
import { isApiError } from "../../lib/api/api-error";
import { formatDateTime, formatShortDate } from "../../lib/format/dates";
import {
  PROVIDER_KEYS_QUERY_KEY,
  refreshAfterKeyChange,
  removeProviderKey,
  retestProviderKey,
  saveProviderKey,
  testProviderKey,
  useProviderKeys,
} from "./provider-keys-api";

const RESULT_TONES: Record<TApiKeyTestResult, string> = {
  valid: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  refused: "bg-red-50 text-red-800 ring-red-200",
  unreachable: "bg-amber-50 text-amber-900 ring-amber-200",
  rate_limited: "bg-amber-50 text-amber-900 ring-amber-200",
  failed: "bg-red-50 text-red-800 ring-red-200",
};

/** A verdict's short label, coloured by what it means for the key. */
function ResultLabel({ result }: { result: TApiKeyTestResult }) {
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-md px-1.5 py-0.5 text-xs font-semibold ring-1 ring-inset",
        RESULT_TONES[result],
      )}
    >
      {API_KEY_TEST_RESULT_LABELS[result]}
    </span>
  );
}

/** The stored key's last test: what it found and when. */
function LastTest({ info, testing }: { info: TApiKeyInfo; testing: boolean }) {
  const test = info.last_test;
  return (
    <p
      data-testid="key-last-test"
      aria-live="polite"
      className="mt-2 flex flex-wrap items-center gap-1.5 text-xs text-ink-600"
    >
      {testing ? (
        <Spinner size="sm" label={`Testing the ${PROVIDER_NAMES[info.provider]} key…`} />
      ) : test ? (
        <>
          <ResultLabel result={test.result} />
          <span>
            Tested {formatDateTime(test.tested_at)}
            {test.result === "valid" ? "" : `: ${test.message}`}
          </span>
        </>
      ) : (
        <span className="italic">Not tested yet.</span>
      )}
    </p>
  );
}

/** Which models a provider's key serves, as Settings says it (decision 029). */
const SERVED_MODELS: Record<TProviderId, string> = {
  openai: "GPT models",
  anthropic: "Claude models",
  google: "Gemini models",
  "openai-compatible": "local models",
};

const KEY_HINTS: Record<TProviderId, string> = {
  openai: "Starts with sk-. Create one at platform.openai.com.",
  anthropic: "Starts with sk-ant-. Create one at console.anthropic.com.",
  google: "A Gemini API key from aistudio.google.com.",
  "openai-compatible":
    "The key your server expects (Ollama, vLLM, LM Studio, llama.cpp); any text if it needs none.",
};

function KeyRow({ info }: { info: TApiKeyInfo }) {
  const queryClient = useQueryClient();
  const removal = useConfirmedAction((error) => failureMessage(error, "Could not remove the key."));
  const [testing, setTesting] = useState(false);
  const name = PROVIDER_NAMES[info.provider];

  /** "Test again": the stored key tested anew, its verdict kept with it. */
  const retest = async () => {
    setTesting(true);
    try {
      await retestProviderKey(info.provider);
      await queryClient.invalidateQueries({ queryKey: PROVIDER_KEYS_QUERY_KEY });
    } catch (error) {
      toast({ title: failureMessage(error, "Could not test the key."), variant: "error" });
    } finally {
      setTesting(false);
    }
  };

  const remove = () =>
    removal.run(async () => {
      await removeProviderKey(info.provider);
      toast({ title: `${name} key removed`, variant: "success" });
      await refreshAfterKeyChange(queryClient);
    });

  return (
    <li
      className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between"
      data-testid={`provider-key-${info.provider}`}
    >
      <div className="min-w-0">
        <p className="text-sm font-semibold text-ink-950">{name}</p>
        <p className="mt-1 font-mono text-xs text-ink-600">
          <span className="sr-only">Key ending in </span>
          <span aria-hidden="true">••••••••</span>
          {info.last4 || <span className="font-sans italic">(too short to show)</span>}
        </p>
        {info.baseURL ? (
          <p className="mt-0.5 truncate text-xs text-ink-500">{info.baseURL}</p>
        ) : null}
        <p className="mt-0.5 text-xs text-ink-500">
          Added {formatShortDate(info.created_at)}
          {info.updated_at !== info.created_at
            ? ` · replaced ${formatShortDate(info.updated_at)}`
            : ""}
        </p>
        <LastTest info={info} testing={testing} />
      </div>
      {removal.confirming ? (
        <div className="flex items-center gap-2">
          <span className="text-sm text-ink-700">Remove this key?</span>
          <ConfirmButtons
            action="Remove"
            pendingAction="Removing…"
            pending={removal.pending}
            onConfirm={remove}
            onCancel={removal.cancel}
          />
        </div>
      ) : (
        <div className="flex items-center gap-2">
          <Button
            size="sm"
            variant="outline"
            onClick={retest}
            disabled={testing}
            aria-label={`Test the ${name} key again`}
          >
            {testing ? "Testing…" : "Test again"}
          </Button>
          <Button
            size="sm"
            variant="outline"
            onClick={removal.ask}
            aria-label={`Remove ${name} key`}
          >
            Remove
          </Button>
        </div>
      )}
    </li>
  );
}

function AddKeyForm({ stored }: { stored: readonly TApiKeyInfo[] }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [provider, setProvider] = useState<TProviderId>("openai");
  const [apiKey, setApiKey] = useState("");
  const [baseURL, setBaseURL] = useState("");
  const [busy, setBusy] = useState<"test" | "save" | null>(null);
  const [result, setResult] = useState<TTestApiKeyResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** The verdict of a key that failed its test on save: saving it needs a confirmation. */
  const [failedTest, setFailedTest] = useState<{
    result: TApiKeyTestResult;
    message: string;
  } | null>(null);
  const takesBaseUrl = PROVIDERS_WITH_BASE_URL.includes(provider);
  const replacing = stored.some((k) => k.provider === provider);
  const name = PROVIDER_NAMES[provider];

  const body = (): TApiKeyRequest => ({
    provider,
    apiKey: apiKey.trim(),
    ...(takesBaseUrl ? { baseURL: baseURL.trim() } : {}),
  });

  const reset = () => {
    setResult(null);
    setError(null);
    setFailedTest(null);
  };

  /** The key's format, checked here as the server checks it: no call for a mistyped key. */
  const formatProblem = (): string | null => {
    if (!apiKey.trim()) return "Enter the API key.";
    return apiKeyFormatProblem(provider, apiKey.trim());
  };

  const test = async () => {
    reset();
    const problem = formatProblem();
    if (problem) {
      setError(problem);
      return;
    }
    setBusy("test");
    try {
      setResult(await testProviderKey(body()));
    } catch (cause) {
      setError(failureMessage(cause, "Could not test the key. Please try again."));
    } finally {
      setBusy(null);
    }
  };

  /** Saving tests the key first; one that fails is stored only once the user confirms. */
  const store = async (confirmed: boolean) => {
    reset();
    setBusy("save");
    try {
      await saveProviderKey({
        ...body(),
        test: true,
        ...(confirmed ? { saveIfTestFails: true } : {}),
      });
      toast({ title: `${name} key saved`, variant: "success" });
      setApiKey("");
      setBaseURL("");
      await refreshAfterKeyChange(queryClient);
    } catch (cause) {
      if (isApiError(cause) && cause.code === API_KEY_ERROR_CODES.testFailed) {
        const details = ZApiKeyTestFailedDetails.safeParse(cause.details);
        setFailedTest(
          details.success ? details.data : { result: "failed", message: cause.message },
        );
      } else {
        setError(failureMessage(cause, "Could not save the key. Please try again."));
      }
    } finally {
      setBusy(null);
    }
  };

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    reset();
    const problem = formatProblem();
    if (problem) {
      setError(problem);
      return;
    }
    await store(false);
  };

  return (
    <form aria-labelledby={`${id}-title`} onSubmit={save} className="grid gap-4" autoComplete="off">
      <h3 id={`${id}-title`} className="text-sm font-semibold text-ink-950">
        Add a key
      </h3>
      <div className="grid gap-4 sm:grid-cols-[15rem_minmax(0,1fr)]">
        <SelectField
          id={`${id}-provider`}
          label="Provider"
          value={provider}
          onChange={(event) => {
            setProvider(event.target.value as TProviderId);
            reset();
          }}
        >
          {PROVIDER_IDS.map((p) => (
            <option key={p} value={p}>
              {PROVIDER_NAMES[p]}
            </option>
          ))}
        </SelectField>
        <Field
          label="API key"
          type="password"
          name="provider-api-key"
          autoComplete="off"
          spellCheck={false}
          required
          maxLength={1024}
          value={apiKey}
          onChange={(event) => {
            setApiKey(event.target.value);
            reset();
          }}
          hint={KEY_HINTS[provider]}
        />
      </div>
      {takesBaseUrl ? (
        <Field
          label="Base URL"
          type="url"
          inputMode="url"
          name="provider-base-url"
          required
          placeholder="https://llm.example.com/v1"
          maxLength={2048}
          value={baseURL}
          onChange={(event) => {
            setBaseURL(event.target.value);
            reset();
          }}
          hint="Your server's public address, ending in /v1. Private and local network addresses are refused."
        />
      ) : null}
      <FormMessage tone={result ? (result.valid ? "success" : "error") : "error"}>
        {result ? (
          <span data-testid="key-test-result">
            <strong className="font-semibold">
              {result.valid ? "Valid. " : `${API_KEY_TEST_RESULT_LABELS[result.result]}. `}
            </strong>
            {result.message}
          </span>
        ) : (
          error
        )}
      </FormMessage>
      {failedTest ? (
        <div
          role="alert"
          className="grid gap-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-3 text-sm text-amber-950"
          data-testid="key-save-confirm"
        >
          <p>
            <strong className="font-semibold">
              The key failed its test ({API_KEY_TEST_RESULT_LABELS[failedTest.result]}).
            </strong>{" "}
            {failedTest.message}{" "}
            {failedTest.result === "refused"
              ? `Saved anyway, every call on ${name} models will fail until you replace it.`
              : "It may work once the provider answers again."}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              variant="outline"
              onClick={() => store(true)}
              disabled={busy !== null}
            >
              Save anyway
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setFailedTest(null)}>
              Don't save
            </Button>
          </div>
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" onClick={test} disabled={busy !== null}>
          {busy === "test" ? <Spinner size="sm" label="Testing the key…" /> : null}
          {busy === "test" ? "Testing…" : "Test"}
        </Button>
        <Button type="submit" disabled={busy !== null || apiKey.trim() === ""}>
          {busy === "save" ? <Spinner size="sm" label="Testing and saving the key…" /> : null}
          {busy === "save" ? "Testing…" : replacing ? "Replace key" : "Save key"}
        </Button>
      </div>
      <p className="-mt-2 text-xs text-ink-500">
        Saving tests the key with one small call first. The key serves the {SERVED_MODELS[provider]}{" "}
        you pick; Cohort's own Co* models always run on Cohort's side.
      </p>
    </form>
  );
}

/** Settings → Provider keys: add, test and remove the user's own keys (shown by last four only). */
export function ProviderKeys() {
  const keys = useProviderKeys();
  return (
    <SectionCard
      id="provider-keys-title"
      title="Provider keys"
      lead="Use your own OpenAI, Anthropic, Google or OpenAI-compatible keys for those providers' models (GPT, Claude, Gemini, local): calls on them cost no credits. Keys are encrypted and never shown again, only their last four characters."
    >
      <div className="mt-4">
        {keys.isPending ? (
          <SectionLoading label="Loading your keys…" />
        ) : keys.isError ? (
          <p className="py-2 text-sm text-red-700">Could not load your keys.</p>
        ) : keys.data.length === 0 ? (
          <p className="rounded-lg border border-dashed border-ink-300 px-4 py-3 text-sm text-ink-600">
            No keys yet: models use Cohort's hosted keys (paid with credits) or the built-in
            simulator.
          </p>
        ) : (
          <ul
            aria-label="Your provider keys"
            className="divide-y divide-ink-200 border-y border-ink-200"
          >
            {keys.data.map((info) => (
              <KeyRow key={info.provider} info={info} />
            ))}
          </ul>
        )}
      </div>
      <div className="mt-6">
        <AddKeyForm stored={keys.data ?? []} />
      </div>
    </SectionCard>
  );
}
