import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter } from "react-router";
import { RouterProvider } from "react-router/dom";
import { createQueryClient } from "./lib/api/query-client";
import { buildRouteObjects } from "./routes";
import "./styles.css";

const container = document.getElementById("root");
if (!container) throw new Error("index.html must contain an element with id root");

const queryClient = createQueryClient();
const router = createBrowserRouter(buildRouteObjects());

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
