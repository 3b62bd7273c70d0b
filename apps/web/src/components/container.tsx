import type { HTMLAttributes } from "react";
import { cn } from "./cn";

export interface ContainerProps extends HTMLAttributes<HTMLDivElement> {
  size?: "prose" | "default" | "wide";
}

const sizes = { prose: "max-w-3xl", default: "max-w-6xl", wide: "max-w-7xl" } as const;

/** Centres content with the page gutters used everywhere. */
export function Container({ size = "default", className, ...props }: ContainerProps) {
  return (
    <div className={cn("mx-auto w-full px-4 sm:px-6 lg:px-8", sizes[size], className)} {...props} />
  );
}
