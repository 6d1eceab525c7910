#pragma once
// Asks for the user name and password of an AI server that has sign-in on, with the reason it
// asks (first sign-in, an expired sign-in, a rejected password) and "Remember password" (off by
// default: normally only the refresh token is kept, in the system keychain).
#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;

namespace delineate::app {

class SignInDialog : public QDialog {
  Q_OBJECT

 public:
  SignInDialog(const QString& server, const QString& user, const QString& reason,
               QWidget* parent = nullptr);

  QString user() const;
  QString password() const;
  bool rememberPassword() const;

  QLineEdit* userEdit() const { return user_; }
  QLineEdit* passwordEdit() const { return password_; }
  QCheckBox* rememberBox() const { return remember_; }
  QLabel* reasonLabel() const { return reason_; }

 private:
  QLabel* reason_;
  QLineEdit* user_;
  QLineEdit* password_;
  QCheckBox* remember_;
};

}  // namespace delineate::app
