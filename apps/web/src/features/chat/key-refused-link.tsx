import { MODEL_ERROR_CODES, PROVIDER_KEYS_SETTINGS_PATH } from "@cohort/contracts";
import { Link } from "react-router";
import { cn } from "../../components/cn";

/**
 * Beside an error that says the user's own provider key was refused (decision 029): the way
 * to Settings, where the key is replaced or removed. Nothing for any other error.
 */
export function KeyRefusedLink({
  code,
  className,
}: {
  code: string | null | undefined;
  className?: string;
}) {
  if (code !== MODEL_ERROR_CODES.providerKeyRejected) return null;
  return (
    <Link
      to={PROVIDER_KEYS_SETTINGS_PATH}
      className={cn("mt-1.5 block w-fit font-semibold underline", className)}
    >
      Open Settings to replace or remove the key
    </Link>
  );
}
