// A tiny scripted dealer: one player, a few messages, then "done". It prints the port it
// listens on, then each reply it read (non-ASCII as \\uXXXX), then "closed" once the player
// has closed its socket. Used only by the interop test.
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

public class Dealer {
    static String escaped(String text) {
        StringBuilder out = new StringBuilder();
        for (char c : text.toCharArray()) {
            if (c >= 0x20 && c < 0x7f) out.append(c);
            else out.append(String.format("\\u%04x", (int) c));
        }
        return out.toString();
    }

    public static void main(String[] args) throws IOException {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            server.setSoTimeout(20000);
            System.out.println(server.getLocalPort());
            System.out.flush();
            try (Socket socket = server.accept()) {
                socket.setSoTimeout(20000);
                DataInputStream dis = new DataInputStream(socket.getInputStream());
                DataOutputStream dos = new DataOutputStream(socket.getOutputStream());
                String[] asks = {"login", "login", "bet1:99:3:0:AS:7D:up:7D:3H:5C",
                                 "bet2:88:30:10:8C:8D:4H:up:KS:KD:8D:4H"};
                for (String ask : asks) {
                    dos.writeUTF(ask);
                    dos.flush();
                    System.out.println(escaped(dis.readUTF()));
                }
                dos.writeUTF("status:win:AS:7D:7C");
                dos.writeUTF("done:bye\u0000 \u2615\uD83D\uDE00");
                dos.flush();
                try {
                    dis.readByte();
                    System.out.println("still open");
                } catch (EOFException closed) {
                    System.out.println("closed");
                }
            }
        }
    }
}
