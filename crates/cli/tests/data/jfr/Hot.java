// A small program with a few hot methods, allocation and a contended lock, written for scorch's JFR test
// (MIT OR Apache-2.0, as scorch). Run with -XX:StartFlightRecording (PROVENANCE.md).
package demo;

import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

public class Hot {
    static final Object LOCK = new Object();
    static volatile long sink;

    static long fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    static double trig(int n) {
        double s = 0;
        for (int i = 0; i < n; i++) {
            s += Math.sin(i) * Math.cos(i);
        }
        return s;
    }

    static List<int[]> churn(int n) {
        List<int[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new int[64 + (i % 200)]);
            if (out.size() > 1000) {
                out.clear();
            }
        }
        return out;
    }

    static String strings(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(Integer.toString(i));
            if (b.length() > 10000) {
                b.setLength(0);
            }
        }
        return b.toString();
    }

    static void locked(long until) {
        while (System.nanoTime() < until) {
            synchronized (LOCK) {
                sink += fib(18);
            }
        }
    }

    static final class Worker implements Runnable {
        private final long until;

        Worker(long until) {
            this.until = until;
        }

        @Override
        public void run() {
            locked(until);
        }
    }

    static void waits(long until) throws Exception {
        try (ServerSocket server = new ServerSocket(0)) {
            server.setSoTimeout(30);
            while (System.nanoTime() < until) {
                LockSupport.parkNanos(30_000_000L);
                try {
                    server.accept().close();
                } catch (SocketTimeoutException e) {
                    sink++;
                }
            }
        }
    }

    public static void main(String[] args) throws Exception {
        long ms = args.length > 0 ? Long.parseLong(args[0]) : 2000;
        long until = System.nanoTime() + ms * 1_000_000L;
        Thread a = new Thread(new Worker(until), "locker-a");
        Thread b = new Thread(new Worker(until), "locker-b");
        Thread w = new Thread(() -> {
            try {
                waits(until);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, "waiter");
        a.start();
        b.start();
        w.start();
        while (System.nanoTime() < until) {
            sink += fib(22);
            sink += (long) trig(20000);
            sink += churn(5000).size();
            sink += strings(5000).length();
        }
        a.join();
        b.join();
        w.join();
    }
}
