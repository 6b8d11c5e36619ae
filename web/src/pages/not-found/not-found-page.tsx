import { FileQuestionMark } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent } from '../../components/ui/card.tsx';

/** Any path outside the route table (spec section 2). The server's SPA fallback sends them here. */
export function NotFoundPage() {
  return (
    <main className="flex min-h-full items-center justify-center bg-slate-50 p-4">
      <Card className="w-full max-w-md">
        <CardContent className="flex flex-col items-center gap-4 p-8 text-center">
          <FileQuestionMark className="size-10 text-red-700" aria-hidden="true" />
          <h1 className="text-2xl font-bold text-slate-900">404 Page Not Found</h1>
          <p className="text-sm text-slate-600">The page you are looking for does not exist or has moved.</p>
          <Button asChild>
            <Link href="/">Go to home page</Link>
          </Button>
        </CardContent>
      </Card>
    </main>
  );
}
