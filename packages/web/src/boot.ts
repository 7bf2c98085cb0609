/**
 * The page's first script, small on purpose: it asks the server for what the opened page will show
 * (staffPrefetch.ts) and only then loads the app (React, the router, the message catalogue, main.tsx),
 * so that the answers travel while the app's code is fetched, parsed and run instead of after it.
 * The app's chunks are fetched alongside this one all the same: vite.config.ts preloads them from
 * index.html.
 */
import { queryClient } from './app/queryClient';
import { prefetchStaffActivityPage } from './app/staffPrefetch';
import './styles/base.css';
import './styles/layout.css';

prefetchStaffActivityPage(queryClient, window.location);
void import('./main');
