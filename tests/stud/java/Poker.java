// A tiny three-card stud player, written as the seed tells students to: DataInputStream /
// DataOutputStream over a Socket. It matches every bet, folds when it cannot, and closes the
// socket after "done". Used only by the interop test.
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;

public class Poker {
    public static void main(String[] args) throws IOException {
        String avatar = args.length > 2 ? args[2] : "J\u00e4v\u00e4\uD83D\uDE00";
        try (Socket socket = new Socket(args[0], Integer.parseInt(args[1]))) {
            DataInputStream dis = new DataInputStream(socket.getInputStream());
            DataOutputStream dos = new DataOutputStream(socket.getOutputStream());
            while (true) {
                String command = dis.readUTF();
                String[] parts = command.split(":");
                if (command.equals("login")) {
                    dos.writeUTF("javaplayer:" + avatar);
                } else if (parts[0].equals("bet1") || parts[0].equals("bet2")) {
                    int stack = Integer.parseInt(parts[1]);
                    int toMatch = Integer.parseInt(parts[3]);
                    dos.writeUTF(stack >= toMatch ? "bet:" + toMatch : "fold");
                } else if (parts[0].equals("done")) {
                    break;
                }
                dos.flush();
            }
        }
    }
}
