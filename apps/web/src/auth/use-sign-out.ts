import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "../components/toast/toast-store";
import { realtime } from "../lib/realtime/realtime-client";
import { signOut } from "./auth-store";

export const LOGGED_OUT_MESSAGE = "Logged out successfully";

/** Signs out (server, then locally), forgets cached data and goes to `to`. */
export function useSignOut(to = "/login") {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const run = async () => {
    setPending(true);
    // Close the live connection first: signing out makes the server cut it mid-request.
    realtime.disconnect();
    await signOut();
    queryClient.clear();
    toast({ title: LOGGED_OUT_MESSAGE, variant: "success" });
    navigate(to, { replace: true });
  };
  return { signOut: run, pending };
}
