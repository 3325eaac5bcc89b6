// The top of every page: its title, a lead paragraph, and the page's main action (if any) at the right.
import type { ReactNode } from 'react';

export function PageHeader({
  title,
  lead,
  children,
}: {
  title: string;
  lead: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="page-header">
      <div>
        <h1>{title}</h1>
        <p className="lead">{lead}</p>
      </div>
      {children}
    </div>
  );
}
